/**
 * OpenTelemetry over a password account's life (the Password() app of the password tests: hosted-db
 * adapter on PGlite, a real SMTP server, JWT sessions with a session registry): sign-up and its mailed
 * link, a wrong then a right current password changing the password, a reset through the mailed link, an
 * email change confirmed from its link, the devices listed and the others signed out, a wrong password
 * deleting the account, then the deletion. Each request is a span named by its route (authlib's fixed
 * subroutes by name: `POST /auth/password/change`), with its outcome and, on a refusal, its error type;
 * the duration histogram has a point per route; and no email, name, password, link token or cookie is in
 * any span or metric.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memorySessionStore } from "../../src/session/memory-store.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { type Browser, linkIn, mailTo, passwordApp, post, type Smtp, secret, signUpAndVerify } from "../password/helpers.js";
import { flowTelemetry } from "./flow-telemetry.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const sdk = registerInMemorySdk();
const telemetry = flowTelemetry(sdk, secret);
const EMAIL = "margaret.hamilton@example.com";
const NEW_EMAIL = "m.hamilton@example.com";
const NAME = "Margaret Hamilton";
const PASSWORDS = ["apollo guidance 1", "apollo guidance 2", "apollo guidance 3"] as const;
const GUESSES = ["a wrong guess 1", "a wrong guess 2"] as const;
let smtp: Smtp;
const audit: AuditEvent[] = [];
let userId: string | undefined;

/** The mailed link under `path` to `to` sent after `since` mails; its token is remembered. */
function mailedToken(to: string, path: string, since: number): string {
  const token = linkIn(mailTo(smtp, to, since), path).searchParams.get("token") as string;
  telemetry.remember(token);
  return token;
}

/** POSTs `form` and expects a redirect that is (`refused`) or is not a refusal. */
async function submit(browser: Browser, path: string, form: Record<string, string>, refused?: string) {
  const response = await post(browser, path, form);
  telemetry.rememberJar(browser);
  const location = response.headers.get("location") ?? "";
  if (refused) expect(location, path).toContain(`error=${refused}`);
  else expect(location, path).not.toContain("error=");
  return response;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  const app = await passwordApp(smtp, {
    config: {
      session: { strategy: "jwt", store: memorySessionStore() },
      audit: { store: { write: (event) => void audit.push(event) } },
    },
  });
  telemetry.remember(EMAIL, NEW_EMAIL, NAME, ...PASSWORDS, ...GUESSES);
  const browser = app.browser();
  await signUpAndVerify(smtp, browser, EMAIL, PASSWORDS[0], NAME);
  telemetry.rememberJar(browser);
  userId = (await app.adapter.getUserByEmail?.(EMAIL))?.id;
  telemetry.remember(userId);

  await submit(browser, "/auth/password/change", { currentPassword: GUESSES[0], password: PASSWORDS[1] }, "IncorrectPassword");
  await submit(browser, "/auth/password/change", { currentPassword: PASSWORDS[0], password: PASSWORDS[1] });

  let since = smtp.mails.length;
  await submit(browser, "/auth/password/forgot", { email: EMAIL });
  const resetToken = mailedToken(EMAIL, "/auth/password/reset", since);
  expect((await browser.send(`/auth/password/reset?token=${encodeURIComponent(resetToken)}`)).status).toBe(200);
  await submit(browser, "/auth/password/reset", { token: resetToken, password: PASSWORDS[2] });

  since = smtp.mails.length;
  await submit(browser, "/auth/account/email", { email: NEW_EMAIL });
  const emailToken = mailedToken(NEW_EMAIL, "/auth/account/confirm-email", since);
  expect((await browser.send(`/auth/account/confirm-email?token=${encodeURIComponent(emailToken)}`)).status).toBe(200);
  await submit(browser, "/auth/account/confirm-email", { token: emailToken });

  const devices = await browser.send("/auth/sessions");
  expect(devices.status).toBe(200);
  for (const device of ((await devices.json()) as { sessions: Array<{ id: string }> }).sessions) telemetry.remember(device.id);
  const signedOut = await browser.send("/auth/sessions/revoke", { form: { csrfToken: await browser.csrf(), all: "others" } });
  expect(signedOut.status).toBe(200);

  await submit(browser, "/auth/account/delete", { currentPassword: GUESSES[1] }, "IncorrectPassword");
  await submit(browser, "/auth/account/delete", { currentPassword: PASSWORDS[2], callbackUrl: "/gone" });
  expect(await app.adapter.getUserByEmail?.(NEW_EMAIL)).toBeNull();

  // Issue 45: a route of a feature that is off does not exist (this app has no second factors): 404 before
  // any route, so no span. A path the router knows for another method only (sign-in to a provider is a
  // POST) is named by its first segment: the client's text (a provider no one has) is no route name.
  expect((await browser.send("/auth/two-factor/status")).status).toBe(404);
  expect((await browser.send("/auth/signin/margaret-was-here")).status).toBe(405);
  // Where the path takes a provider, its id is `:provider`, also when no provider has it.
  await post(browser, "/auth/signin/margaret-was-here", {});
  telemetry.remember("margaret-was-here");
}, 120_000);
afterAll(async () => {
  await smtp?.close();
  await closeSharedPglite();
  await sdk.shutdown();
});

describe("a password account's life", () => {
  it("every request is a span named by its route, with its outcome, and its error type when refused", () => {
    const requests = sdk
      .allFinished()
      .filter((span) => span.kind === 1 && span.name !== "GET /auth/csrf" && span.name !== "GET /auth/session")
      .map((span) => [span.name, span.attributes["authlib.outcome"], span.attributes["error.type"] ?? null]);
    expect(requests).toEqual([
      ["POST /auth/password/sign-up", "success", null],
      ["POST /auth/password/verify", "success", null],
      ["POST /auth/password/change", "failure", "IncorrectPassword"],
      ["POST /auth/password/change", "success", null],
      ["POST /auth/password/forgot", "success", null],
      ["GET /auth/password/reset", "success", null],
      ["POST /auth/password/reset", "success", null],
      ["POST /auth/account/email", "success", null],
      ["GET /auth/account/confirm-email", "success", null],
      ["POST /auth/account/confirm-email", "success", null],
      ["GET /auth/sessions", "success", null],
      ["POST /auth/sessions/revoke", "success", null],
      ["POST /auth/account/delete", "failure", "IncorrectPassword"],
      ["POST /auth/account/delete", "success", null],
      ["GET /auth/signin", "failure", "MethodNotAllowed"],
      ["POST /auth/signin/:provider", "failure", "InvalidProvider"],
    ]);
    telemetry.expectRequestSpan(telemetry.lastRequestSpan("POST", "/auth/account/delete"), {
      route: "/auth/account/delete",
      action: "account",
      outcome: "success",
      status: 302,
    });
  });

  it("the wrong current password is decided by the credentials limits, below its request span", () => {
    const [refused] = telemetry.requestSpans("POST", "/auth/password/change");
    telemetry.expectChildSpans(refused, [
      { name: "authlib.rate_limit", kind: 0, attributes: { "authlib.rate_limit.rule": "credentials" } },
    ]);
  });

  it("the duration histogram has the routes, the refusals with their error type", async () => {
    for (const route of ["/auth/password/change", "/auth/password/reset", "/auth/account/confirm-email", "/auth/sessions/revoke"])
      expect(await telemetry.metricPoint("http.server.request.duration", { "http.route": route }), route).toBeDefined();
    const refused = await telemetry.metricPoint("http.server.request.duration", {
      "http.route": "/auth/account/delete",
      "error.type": "IncorrectPassword",
    });
    expect(refused?.value).toMatchObject({ count: 1 });
  });

  it("the audit trail has the account's changes and the two wrong passwords, each naming the user", async () => {
    await expect.poll(() => audit.some((row) => row.type === "userDeleted")).toBe(true);
    const rows = audit.filter((row) => row.type !== "signIn" && row.type !== "sessionRevoked");
    expect(rows.map((row) => [row.type, row.userId, row.detail])).toEqual([
      ["reauthenticationFailed", userId, "IncorrectPassword"],
      ["passwordChanged", userId, "change"],
      ["passwordChanged", userId, "reset"],
      ["reauthenticationFailed", userId, "IncorrectPassword"],
      // Deleting the account ends its session first.
      ["signOut", userId, null],
      ["userDeleted", userId, null],
      // The sign-in with a provider no one has, after the account is gone.
      ["signInFailed", null, "InvalidProvider"],
    ]);
  });
});

telemetry.describeScan(20);
