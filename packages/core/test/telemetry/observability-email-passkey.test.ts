/**
 * OpenTelemetry traces and metrics over the email, passkey and second-factor flows of the end-to-end tests
 * (issue 34), with the real SDK and its in-memory exporters: email link and code through a real SMTP
 * server (users on PGlite), passkey registration and sign-in with the software authenticator, password
 * sign-in held for a TOTP code (the passkey and TOTP steps are helpers/second-factor-flows.ts's, which the
 * hosted-db audit test runs too), and rate-limit refusals on the email and passkey routes. The OAuth flows
 * and database sessions are observability-oauth.test.ts. Every value the flows used that names a person
 * or grants access is remembered; at the end no span or metric text may hold one, and every attribute
 * value must come from a closed grammar.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../src/providers/nodemailer.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import {
  PASSKEY_NAME,
  passkeyApp,
  passkeyCeremony,
  passwordSignIn,
  TOTP_USER,
  totpApp,
  turnOnTotp,
} from "../helpers/second-factor-flows.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { codeOf, secondStep } from "../two-factor/helpers.js";
import { ADDRESS, CLIENT, type Client, flowTelemetry, INTERNAL, ORIGIN } from "./flow-telemetry.js";
import { registerInMemorySdk } from "./otel-sdk.js";

const secret = "observability-flows-secret-0123456789abcdef";

const sdk = registerInMemorySdk();
const { remember, rememberJar, requestSpans, lastRequestSpan, expectRequestSpan, expectChildSpans, metricPoint, describeScan } =
  flowTelemetry(sdk, secret);
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await smtp?.close();
  await closeSharedPglite();
  await sdk.shutdown();
});

describe("email sign-in through real SMTP", () => {
  async function emailApp() {
    const { adapter } = await freshDatabase();
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      providers: [Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>" })],
      rateLimit: { store: memoryRateLimitStore(), email: { mailboxMax: 2 } },
      logger: { error: () => {}, warn: () => {} },
    };
    return config;
  }
  async function ask(client: Client, email: string) {
    const before = smtp.mails.length;
    const csrfToken = await client.csrf();
    remember(csrfToken, email);
    const response = await client.send("/auth/signin/nodemailer", { form: { csrfToken, email, callbackUrl: "/welcome" } });
    const location = new URL(response.headers.get("location") ?? "", ORIGIN);
    if (location.searchParams.get("error")) return { error: location.searchParams.get("error") };
    const mail = await smtp.nextMail(before);
    const link = mail.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0] as string;
    const code = mail.text?.match(/asked to sign in: (\d+)/)?.[1];
    expect(link).toBeTruthy();
    const token = new URL(link).searchParams.get("token");
    remember(link, token, code, encodeURIComponent(email));
    return { link, code };
  }

  it("the link: send, click; the code: send, type; each with its spans and metrics", async () => {
    const config = await emailApp();
    sdk.spans.reset();
    const linkBrowser = authClient(config, ORIGIN, ADDRESS);
    const { link } = await ask(linkBrowser, "grace.hopper@example.com");
    expectRequestSpan(lastRequestSpan("POST", "/auth/signin/:provider"), {
      route: "/auth/signin/:provider",
      action: "signin",
      provider: "nodemailer",
      outcome: "success",
      status: 302,
    });
    const opened = await linkBrowser.openEmailLink(link as string);
    expect(opened.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    rememberJar(linkBrowser);
    expect((await linkBrowser.session())?.user?.email).toBe("grace.hopper@example.com");
    remember((await config.adapter?.getUserByEmail?.("grace.hopper@example.com"))?.id);
    const linkCallback = lastRequestSpan("GET", "/auth/callback/:provider");
    expectRequestSpan(linkCallback, {
      route: "/auth/callback/:provider",
      action: "callback",
      provider: "nodemailer",
      outcome: "success",
      status: 302,
    });
    expectChildSpans(linkCallback, [{ name: /^authlib\.adapter\./, kind: CLIENT, descendant: true }]);

    const codeBrowser = authClient(config, ORIGIN, ADDRESS);
    const { code } = await ask(codeBrowser, "katherine.johnson@example.com");
    expect(code).toMatch(/^\d+$/);
    const csrfToken = await codeBrowser.csrf();
    remember(csrfToken);
    const typed = await codeBrowser.send("/auth/callback/nodemailer", { form: { csrfToken, code: code as string } });
    expect(typed.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    remember((await config.adapter?.getUserByEmail?.("katherine.johnson@example.com"))?.id);
    rememberJar(codeBrowser);
    expectRequestSpan(lastRequestSpan("POST", "/auth/callback/:provider"), {
      route: "/auth/callback/:provider",
      action: "callback",
      provider: "nodemailer",
      outcome: "success",
      status: 302,
    });
    expect(
      (await metricPoint("authlib.sign_in.attempts", { "authlib.provider": "nodemailer", "authlib.outcome": "success" }))?.value,
    ).toBeGreaterThanOrEqual(2);
  });

  it("a mailbox past its limit is refused: outcome refused, RateLimited, a refusal counted, the limiter's decision a child", async () => {
    const config = await emailApp();
    const email = "refused.mailbox@example.com";
    await ask(authClient(config, ORIGIN, ADDRESS), email);
    await ask(authClient(config, ORIGIN, ADDRESS), email);
    sdk.spans.reset();
    const third = await ask(authClient(config, ORIGIN, ADDRESS), email);
    expect(third.error).toBe("RateLimited");
    const span = lastRequestSpan("POST", "/auth/signin/:provider");
    expectRequestSpan(span, {
      route: "/auth/signin/:provider",
      action: "signin",
      provider: "nodemailer",
      outcome: "refused",
      status: 302,
      errorType: "RateLimited",
    });
    expect(
      (await metricPoint("authlib.rate_limit.refusals", { "authlib.action": "signin", "authlib.provider": "nodemailer" }))?.value,
    ).toBeGreaterThanOrEqual(1);
    expectChildSpans(span, [
      {
        name: "authlib.rate_limit",
        kind: INTERNAL,
        attributes: { "authlib.rate_limit.rule": "email:ip", "authlib.outcome": "success" },
      },
      {
        name: "authlib.rate_limit",
        kind: INTERNAL,
        attributes: { "authlib.rate_limit.rule": "email:mbox", "authlib.outcome": "refused" },
      },
    ]);
  });
});

describe("passkeys with the software authenticator", () => {
  const passkeys = (rateLimit?: AuthConfig["rateLimit"]) => passkeyApp(secret, rateLimit ? { rateLimit } : {});

  it("registration and sign-in: their spans and metrics", async () => {
    remember(PASSKEY_NAME);
    const { config, authenticator, memory } = passkeys();
    sdk.spans.reset();
    const registering = authClient(config, ORIGIN, ADDRESS);
    const registered = await passkeyCeremony(registering, authenticator, "register", remember);
    expect(registered.response.headers.get("location")).toBe(`${ORIGIN}/`);
    rememberJar(registering);
    for (const user of memory.users.values()) remember(user.id);
    expectRequestSpan(lastRequestSpan("GET", "/auth/webauthn-options/:provider"), {
      route: "/auth/webauthn-options/:provider",
      action: "webauthn-options",
      provider: "passkey",
      outcome: "success",
      status: 200,
    });
    expectRequestSpan(lastRequestSpan("POST", "/auth/callback/:provider"), {
      route: "/auth/callback/:provider",
      action: "callback",
      provider: "passkey",
      outcome: "success",
      status: 302,
    });

    const signingIn = authClient(config, ORIGIN, ADDRESS);
    const signedIn = await passkeyCeremony(signingIn, authenticator, "authenticate", remember);
    expect(signedIn.response.headers.get("location")).toBe(`${ORIGIN}/`);
    rememberJar(signingIn);
    expect((await signingIn.session())?.user?.name).toBe(PASSKEY_NAME);
    expect(requestSpans("POST", "/auth/callback/:provider").map((span) => span.attributes["authlib.outcome"])).toEqual([
      "success",
      "success",
    ]);
    expect(
      (await metricPoint("authlib.sign_in.attempts", { "authlib.provider": "passkey", "authlib.outcome": "success" }))?.value,
    ).toBeGreaterThanOrEqual(2);
  });

  it("options past the per-client limit: 429, refused, counted", async () => {
    const { config } = passkeys({ store: memoryRateLimitStore(), passkey: { max: 1, windowSeconds: 60 } });
    const client = authClient(config, ORIGIN, ADDRESS);
    sdk.spans.reset();
    expect((await client.send("/auth/webauthn-options/passkey?action=authenticate")).status).toBe(200);
    const refused = await client.send("/auth/webauthn-options/passkey?action=authenticate");
    expect(refused.status).toBe(429);
    const span = lastRequestSpan("GET", "/auth/webauthn-options/:provider");
    expectRequestSpan(span, {
      route: "/auth/webauthn-options/:provider",
      action: "webauthn-options",
      provider: "passkey",
      outcome: "refused",
      status: 429,
      errorType: "RateLimited",
    });
    expect(
      (await metricPoint("authlib.rate_limit.refusals", { "authlib.action": "webauthn-options", "authlib.provider": "passkey" }))?.value,
    ).toBe(1);
    expectChildSpans(span, [{ name: "authlib.rate_limit", kind: INTERNAL, attributes: { "authlib.outcome": "refused" } }]);
  });
});

describe("second factor (TOTP)", () => {
  it("password sign-in → pending → POST /auth/two-factor with a code", async () => {
    const { config } = totpApp(secret);
    remember(TOTP_USER.id);
    const enrolling = authClient(config, ORIGIN, ADDRESS);
    await passwordSignIn(enrolling, remember);
    rememberJar(enrolling);
    const { secret: totpSecret } = await turnOnTotp(enrolling, remember);

    sdk.spans.reset();
    const browser = authClient(config, ORIGIN, ADDRESS);
    const held = await passwordSignIn(browser, remember);
    expect(held.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
    rememberJar(browser);
    const code = codeOf(totpSecret, 1);
    remember(code);
    const done = await secondStep(browser, code);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/home`);
    rememberJar(browser);

    const credentials = lastRequestSpan("POST", "/auth/callback/:provider");
    expect(credentials?.attributes).toMatchObject({ "authlib.provider": "credentials", "http.response.status_code": 302 });
    expectRequestSpan(lastRequestSpan("POST", "/auth/two-factor"), {
      route: "/auth/two-factor",
      action: "two-factor",
      outcome: "success",
      status: 302,
    });
    expect(await metricPoint("http.server.request.duration", { "http.route": "/auth/two-factor" })).toBeDefined();
  });
});

describeScan();
