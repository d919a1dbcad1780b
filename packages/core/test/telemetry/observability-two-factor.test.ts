/**
 * OpenTelemetry over the password and second-factor flows with database sessions (the Password() app of
 * the password tests: hosted-db adapter on PGlite, a real SMTP server): sign-up and its mailed link, TOTP
 * turned on, a password sign-in that waits for its second step, a wrong code, the right one, the session
 * read from its row, the user's sessions ended through `auth.api`. The request spans, the steps below them
 * (database session reads, adapter calls, the code limits), and no email, password, TOTP secret, code,
 * recovery code or cookie in any span or metric.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { type Smtp, secret } from "../password/helpers.js";
import { codeOf, firstFactor, PASSWORD, requestOf, secondStep, twoFactorApp, userWithTotp } from "../two-factor/helpers.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const sdk = registerInMemorySdk();
const EMAIL = "grace.hopper@example.com";
let smtp: Smtp;
const handled: string[] = [EMAIL, PASSWORD, secret];

beforeAll(async () => {
  smtp = await startSmtpServer();
  const app = await twoFactorApp(smtp, { strategy: "database" });
  const user = await userWithTotp(smtp, app, EMAIL);
  handled.push(user.secret, ...user.recoveryCodes, user.enrollment.uri);
  sdk.spans.reset();

  const { browser } = await firstFactor(app, EMAIL);
  const wrong = await secondStep(browser, codeOf(user.secret, 5));
  expect(wrong.status).toBe(302);
  // The next step's code (within the window): the current one was spent turning TOTP on.
  const code = codeOf(user.secret, 1);
  handled.push(code);
  const done = await secondStep(browser, code);
  expect(done.headers.get("location")).not.toContain("error");
  for (const cookie of browser.jar.cookies.values()) handled.push(cookie.value);
  expect((await browser.session())?.user?.email).toBe(EMAIL);
  await app.auth.api.revokeOtherSessions(requestOf(browser));
}, 120_000);
afterAll(async () => {
  await smtp?.close();
  await closeSharedPglite();
  await sdk.shutdown();
});

describe("second factor and database sessions", () => {
  it("the first factor, the refused and the accepted second step are request spans with their outcomes", () => {
    const requests = sdk
      .finished()
      .filter((span) => span.kind === 1)
      .map((span) => [span.name, span.attributes["authlib.outcome"], span.attributes["error.type"] ?? null]);
    expect(requests).toContainEqual(["POST /auth/callback/:provider", "success", null]);
    expect(requests.filter(([name]) => name === "POST /auth/two-factor").map(([, ...rest]) => rest)).toEqual([
      ["failure", "IncorrectCode"],
      ["success", null],
    ]);
    expect(requests).toContainEqual(["GET /auth/session", "success", null]);
  });

  it("the code limits decide under the second step; the session is read from its row through the adapter", () => {
    const spans = sdk.finished();
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const parentName = (span: (typeof spans)[number]) => byId.get(span.parentSpanContext?.spanId ?? "")?.name;
    const limits = spans.filter((span) => span.name === "authlib.rate_limit");
    expect(new Set(limits.map((span) => span.attributes["authlib.rate_limit.rule"]))).toContain("2fa:user");
    expect(limits.some((span) => parentName(span) === "POST /auth/two-factor")).toBe(true);
    // The session check's span is the read: the adapter's call is its child.
    const read = spans.find((span) => span.name === "GET /auth/session");
    expect(read?.attributes["authlib.session.strategy"]).toBe("database");
    const readId = read?.spanContext().spanId;
    expect(spans.some((span) => span.name === "authlib.adapter.getSessionAndUser" && span.parentSpanContext?.spanId === readId)).toBe(true);
  });

  it("no email, password, TOTP secret, code, recovery code or cookie in any span or metric", async () => {
    const text = await sdk.everyText();
    expect(text.length).toBeGreaterThan(500);
    for (const value of handled) expect(text.includes(value), value.slice(0, 6)).toBe(false);
    expect(text).not.toContain("@");
  });
});
