/**
 * `ssoRequired`: an address at a domain its organization has proven, whose connection requires SSO, is
 * refused every other way in with `SsoRequired` (the sign-in page's message says to use the
 * organization's SSO): a password, an email link (no mail is even sent), OIDC at a real OpenID Provider,
 * and a passkey (a software authenticator). Each way signs in once before the rule, is refused while it
 * holds, and signs in again once it is lifted; the SSO sign-in itself passes. An address at a domain the
 * organization only claimed (not proven) is never held to the rule, and discovery never routes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { authClient } from "../helpers/auth-client.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { DEFAULT_USERS, opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";
import { ORIGIN, oidcInput, PASSWORD, post, ssoApp, ssoJson } from "./helpers.js";

type Client = ReturnType<typeof authClient>;

let dns: TxtServer;
let op: TestOP;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  [dns, op, smtp] = await Promise.all([
    startTxtServer(),
    startTestOP({
      clients: [
        { client_id: "app", client_secret: "sso-required-client-secret-0123456789", redirect_uris: [`${ORIGIN}/auth/callback/op`] },
      ],
      users: { alice: { ...DEFAULT_USERS.alice, email: "alice@acme.test", email_verified: true } },
    }),
    startSmtpServer(),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([dns?.close(), op?.close(), smtp?.close()]);
});

/** The app with every way in: Password (from ssoApp), an email link, OIDC at the test OP, passkeys. */
function appWithEveryMethod() {
  return ssoApp(dns, { session: { strategy: "jwt" }, experimental: { enableWebAuthn: true } }, undefined, [
    Nodemailer({ server: smtp.transport, from: "no-reply@example.com", rateLimit: { store: memoryRateLimitStore() } }),
    opProvider(op, { clientSecret: "sso-required-client-secret-0123456789" }),
    Passkey({}),
  ]);
}

describe("ssoRequired", () => {
  it("refuses a password, an email link, OIDC and a passkey for the proven domain with SsoRequired; lifted, they sign in again; SSO passes", async () => {
    const app = appWithEveryMethod();
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", "acme.test");
    const connection = await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId));
    const authenticator = new SoftAuthenticator(ORIGIN);
    // The passkey's user: a proven address at the domain, with a passkey added while signed in.
    const hedy = await app.signedUp("hedy@acme.test");
    const optionsResponse = await hedy.send(`/auth/webauthn-options/passkey?${new URLSearchParams({ action: "register" })}`);
    const registration = await authenticator.register(((await optionsResponse.json()) as { options: any }).options);
    await hedy.send("/auth/callback/passkey", {
      json: { action: "register", data: JSON.stringify(registration), csrfToken: await hedy.csrf() },
    });
    expect(authenticator.credentials).toHaveLength(1);
    await app.signedUp("pat@acme.test");

    const methods: Record<string, (b: Client) => Promise<Response>> = {
      password: (b) => post(b, "/auth/callback/password", { email: "pat@acme.test", password: PASSWORD, callbackUrl: "/" }),
      email: async (b) => {
        const since = smtp.mails.length;
        const asked = await post(b, "/auth/signin/nodemailer", { email: "em@acme.test", callbackUrl: "/" });
        const mail = smtp.mails.slice(since).find((m) => (m.to as { text: string } | undefined)?.text === "em@acme.test");
        const link = mail?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
        return link ? b.send(link) : asked;
      },
      oidc: async (b) => {
        const start = await post(b, "/auth/signin/op", { callbackUrl: "/" });
        const callback = await op.authorize(start.headers.get("location") as string);
        return b.send(callback.pathname + callback.search);
      },
      passkey: async (b) => {
        const response = await b.send(`/auth/webauthn-options/passkey?${new URLSearchParams({ action: "authenticate" })}`);
        const answer = await authenticator.authenticate(((await response.json()) as { options: any }).options);
        return b.send("/auth/callback/passkey", {
          json: { action: "authenticate", data: JSON.stringify(answer), csrfToken: await b.csrf() },
        });
      },
    };
    const setRequired = (ssoRequired: boolean) =>
      app.auth.api.updateSsoConnection(app.as(owner), { connectionId: connection.id, ssoRequired });

    for (const [method, run] of Object.entries(methods)) {
      const before = app.browser();
      await run(before);
      expect((await before.session())?.user?.email, `${method}: signs in before the rule`).toMatch(/@acme\.test$/);

      await setRequired(true);
      const refused = app.browser();
      const mailsBefore = smtp.mails.length;
      const response = await run(refused);
      const answer = `${response.headers.get("location") ?? ""} ${response.status === 200 ? await response.text() : ""}`;
      expect(answer, `${method}: refused with SsoRequired`).toContain("SsoRequired");
      expect(await refused.session(), `${method}: no session`).toBeNull();
      if (method === "email") expect(smtp.mails.length, "no mail is sent to an SSO-only address").toBe(mailsBefore);

      await setRequired(false);
      const again = app.browser();
      await run(again);
      expect((await again.session())?.user?.email, `${method}: back in once lifted`).toMatch(/@acme\.test$/);
    }

    // The sign-in page says what to do.
    const page = await app.browser().send("/auth/signin?error=SsoRequired");
    expect(await page.text()).toContain("sign in with your organization's SSO.");
    // While the rule holds, the organization's SSO itself lets the same address in.
    await setRequired(true);
    const viaSso = app.browser();
    await app.ssoSignInWith(viaSso, connection.id, { subject: "00u-pat", email: "pat@acme.test" });
    expect((await viaSso.session())?.user?.email).toBe("pat@acme.test");
  }, 120_000);

  it("a wrong password for an SSO-only address is refused as SSO-only: the password is never checked", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", "acme.test");
    await app.signedUp("pat@acme.test");
    await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId, undefined, { ssoRequired: true }));
    const response = await post(app.browser(), "/auth/callback/password", {
      email: "PAT@acme.test",
      password: "not the password",
      callbackUrl: "/",
    });
    expect(response.headers.get("location")).toContain("error=SsoRequired");
  });

  it("an unproven domain is never routed nor held to the rule, even with an SSO-only connection", async () => {
    const app = ssoApp(dns);
    const owner = await app.signedUp("owner@owner.test");
    const organizationId = await app.organizationWithDomain(owner, "acme", undefined);
    await app.auth.api.addDomain(app.as(owner), { organizationId, domain: "claimed.test" });
    await app.auth.api.createSsoConnection(app.as(owner), oidcInput(organizationId, undefined, { ssoRequired: true }));
    const pat = await app.signedUp("pat@claimed.test");
    expect((await pat.session())?.user?.email).toBe("pat@claimed.test");
    expect(await ssoJson(app.browser(), "discover", { email: "pat@claimed.test" })).toEqual({ status: 200, body: { sso: false } });
  });
});
