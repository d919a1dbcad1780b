/**
 * OpenTelemetry traces and metrics over the email, passkey and second-factor flows of the end-to-end tests
 * (issue 34), with the real SDK and its in-memory exporters: email link and code through a real SMTP
 * server (users on PGlite), passkey registration and sign-in with the software authenticator, password
 * sign-in held for a TOTP code, and rate-limit refusals on the email and passkey routes. The OAuth flows
 * and database sessions are observability-oauth.test.ts. Every value the flows used that names a person
 * or grants access is remembered; at the end no span or metric text may hold one, and every attribute
 * value must come from a closed grammar.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../../src/instance.js";
import Credentials from "../../src/providers/credentials.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { codeOf } from "../two-factor/helpers.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
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
  function passkeyApp(rateLimit?: AuthConfig["rateLimit"]) {
    const memory = memoryAdapter();
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: memory.adapter,
      providers: [Passkey({})],
      experimental: { enableWebAuthn: true },
      logger: { error: () => {}, warn: () => {} },
      ...(rateLimit ? { rateLimit } : {}),
    };
    return { config, memory, authenticator: new SoftAuthenticator(ORIGIN) };
  }
  async function ceremony(client: Client, authenticator: SoftAuthenticator, action: "register" | "authenticate") {
    const query = new URLSearchParams(action === "register" ? { action, name: "Hedy Lamarr" } : { action });
    const { options } = (await (await client.send(`/auth/webauthn-options/passkey?${query}`)).json()) as { options: any };
    remember(options.challenge, options.user?.id);
    const answer = action === "register" ? await authenticator.register(options) : await authenticator.authenticate(options);
    remember(answer.id, answer.rawId);
    const csrfToken = await client.csrf();
    remember(csrfToken);
    return client.send("/auth/callback/passkey", { json: { action, data: JSON.stringify(answer), csrfToken } });
  }

  it("registration and sign-in: their spans and metrics", async () => {
    remember("Hedy Lamarr");
    const { config, authenticator, memory } = passkeyApp();
    sdk.spans.reset();
    const registering = authClient(config, ORIGIN, ADDRESS);
    expect((await ceremony(registering, authenticator, "register")).headers.get("location")).toBe(`${ORIGIN}/`);
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
    expect((await ceremony(signingIn, authenticator, "authenticate")).headers.get("location")).toBe(`${ORIGIN}/`);
    rememberJar(signingIn);
    expect((await signingIn.session())?.user?.name).toBe("Hedy Lamarr");
    expect(requestSpans("POST", "/auth/callback/:provider").map((span) => span.attributes["authlib.outcome"])).toEqual([
      "success",
      "success",
    ]);
    expect(
      (await metricPoint("authlib.sign_in.attempts", { "authlib.provider": "passkey", "authlib.outcome": "success" }))?.value,
    ).toBeGreaterThanOrEqual(2);
  });

  it("options past the per-client limit: 429, refused, counted", async () => {
    const { config } = passkeyApp({ store: memoryRateLimitStore(), passkey: { max: 1, windowSeconds: 60 } });
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
    const PASSWORD = "totp flow password 4242";
    const memory = memoryAdapter();
    memory.users.set("u-totp-7", { id: "u-totp-7", email: "ada@example.com", emailVerified: null, name: "Ada" });
    remember(PASSWORD, "u-totp-7", "ada@example.com");
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: memory.adapter,
      session: { strategy: "jwt" },
      providers: [
        Credentials({
          credentials: { email: {}, password: { type: "password" } },
          authorize: ({ email, password }) => (email === "ada@example.com" && password === PASSWORD ? { id: "u-totp-7", email } : null),
        }),
      ],
      twoFactor: {},
      rateLimit: { store: memoryRateLimitStore() },
      logger: { error: () => {}, warn: () => {} },
    };
    const auth = createAuth(config);
    const signIn = async (client: Client) => {
      const csrfToken = await client.csrf();
      remember(csrfToken);
      return client.send("/auth/callback/credentials", {
        form: { csrfToken, email: "ada@example.com", password: PASSWORD, callbackUrl: "/home" },
      });
    };
    const enrolling = authClient(config, ORIGIN, ADDRESS);
    await signIn(enrolling);
    rememberJar(enrolling);
    const requestOf = (client: Client) => new Request(`${ORIGIN}/page`, { headers: { cookie: client.jar.header() } });
    const { secret: totpSecret, uri } = (await auth.api.enrollTotp(requestOf(enrolling))) as { secret: string; uri?: string };
    const first = codeOf(totpSecret);
    const { recoveryCodes } = await auth.api.confirmTotp(requestOf(enrolling), { code: first });
    remember(totpSecret, uri, first, ...recoveryCodes);

    sdk.spans.reset();
    const browser = authClient(config, ORIGIN, ADDRESS);
    const held = await signIn(browser);
    expect(held.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`);
    rememberJar(browser);
    const code = codeOf(totpSecret, 1);
    const csrfToken = await browser.csrf();
    remember(code, csrfToken);
    const done = await browser.send("/auth/two-factor", { form: { csrfToken, code } });
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
