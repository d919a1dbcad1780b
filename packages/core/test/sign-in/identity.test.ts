/**
 * Issue 12, tried as an attacker would: an identity is trusted only as far as it was proven. A real
 * OpenID Provider (oidc-provider) serves the claims the attacker chose, a real SMTP server carries the
 * victim's email link, passkeys come from a software authenticator, users live in PGlite.
 */
import type { EventEmitter } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode, encode } from "../../src/jwt.js";
import Nodemailer from "../../src/providers/nodemailer.js";
import Passkey from "../../src/providers/passkey.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AdapterUser } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { SoftAuthenticator } from "../webauthn/soft-authenticator.js";

const secret = "identity-test-secret-0123456789abcdef";
const origin = "http://localhost:3000";
const VICTIM = "victim@example.com";
let op: TestOP;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let userinfoEndpoint: string;
/** Refresh-token grants the OP answered (successes and errors). */
const refreshGrants = { success: 0, error: 0 };

beforeAll(async () => {
  op = await startTestOP({
    clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${origin}/auth/callback/op`] }],
    users: {
      // The attacker controls their own email claim at this OP, and the OP says so: not verified.
      mallory: { email: VICTIM, email_verified: false, name: "Mallory" },
      // An OP that sends no email_verified claim at all.
      quiet: { email: "quiet@example.com", name: "Quiet" },
      alice: { email: "alice@example.com", email_verified: true, name: "Alice" },
    },
  });
  const emitter = op.provider as unknown as EventEmitter;
  const count = (key: "success" | "error") => (ctx: { oidc?: { params?: { grant_type?: string } } }) => {
    if (ctx.oidc?.params?.grant_type === "refresh_token") refreshGrants[key]++;
  };
  emitter.on("grant.success", count("success"));
  emitter.on("grant.error", count("error"));
  userinfoEndpoint = ((await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string })
    .userinfo_endpoint;
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await op.close();
  await smtp.close();
  await closeSharedPglite();
});

type Client = ReturnType<typeof authClient>;

async function setup(provider: Partial<OAuthConfig> = {}, overrides: Partial<AuthConfig> = {}) {
  const db = await freshDatabase();
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [
      opProvider(op, provider),
      Nodemailer({ server: smtp.transport, from: "Demo <no-reply@demo.test>", rateLimit: { store: memoryRateLimitStore() } }),
      Passkey(),
    ],
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  };
  return { ...db, config, newClient: () => authClient(config, origin) };
}

async function oidcSignIn(client: Client, user: string) {
  const csrfToken = await client.csrf();
  const start = await client.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } });
  const callback = await op.authorize(start.headers.get("location") as string, { user });
  return client.send(callback.pathname + callback.search);
}

/** Requests an email link for `email` and follows it. */
async function emailSignIn(client: Client, email: string) {
  const csrfToken = await client.csrf();
  await client.send("/auth/signin/nodemailer", { form: { csrfToken, email, callbackUrl: "/inbox" } });
  const link = smtp.mails.at(-1)?.text?.match(/http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/)?.[0];
  if (!link) throw new Error("no sign-in link in the mail");
  return client.send(link);
}

describe("pre-account takeover through an unverified OIDC email", () => {
  for (const dangerous of [false, true]) {
    it(`email_verified false never becomes the user's email, and the victim's email link gets a user the attacker cannot reach (allowDangerousEmailAccountLinking ${dangerous})`, async () => {
      const app = await setup({ allowDangerousEmailAccountLinking: dangerous });
      const signIns: Array<{ email?: string | null; emailVerified?: Date | null }> = [];
      app.config.callbacks = {
        signIn: ({ user }) => {
          signIns.push({ email: user.email, emailVerified: user.emailVerified });
          return true;
        },
      };

      // 1. The attacker signs up first, with the victim's address as an unverified claim.
      const attacker = app.newClient();
      expect((await oidcSignIn(attacker, "mallory")).headers.get("location")).toBe(`${origin}/dashboard`);
      const attackerUser = (await app.adapter.getUserByAccount!({ provider: "op", providerAccountId: "mallory" })) as AdapterUser;
      expect(attackerUser).toMatchObject({ email: null, emailVerified: null, name: "Mallory" });
      expect(await app.adapter.getUserByEmail!(VICTIM)).toBeNull();
      expect((await attacker.session())?.user).toMatchObject({ email: null, name: "Mallory" });
      // The signIn callback never sees the unverified address as the user's email.
      expect(signIns[0]).toEqual({ email: null, emailVerified: null });

      // 2. The victim signs in with an email link: a user of their own, proven.
      const victim = app.newClient();
      expect((await emailSignIn(victim, VICTIM)).headers.get("location")).toBe(`${origin}/inbox`);
      const victimUser = (await app.adapter.getUserByEmail!(VICTIM)) as AdapterUser;
      expect(victimUser.id).not.toBe(attackerUser.id);
      expect(victimUser.emailVerified).toBeInstanceOf(Date);
      // No provider account (the attacker's OIDC account above all) is linked to the victim's user.
      expect(await app.adapter.listAccountsByUserId!(victimUser.id)).toEqual([]);

      // 3. The attacker signs in again: their own user, never the victim's.
      const again = app.newClient();
      await oidcSignIn(again, "mallory");
      expect(await app.adapter.getUserByAccount!({ provider: "op", providerAccountId: "mallory" })).toMatchObject({ id: attackerUser.id });
      expect((await again.session())?.user).toMatchObject({ email: null, name: "Mallory" });
    });
  }

  it("a holder from before the fix (unproven address, OIDC-linked, signed in) loses the address and its sessions to the email-link prover", async () => {
    const app = await setup();
    const attacker = app.newClient();
    await oidcSignIn(attacker, "mallory");
    const attackerUser = (await app.adapter.getUserByAccount!({ provider: "op", providerAccountId: "mallory" })) as AdapterUser;
    // The row as the old code wrote it: the unverified claim as the user's email.
    await app.adapter.updateUser!({ id: attackerUser.id, email: VICTIM });
    expect((await attacker.session())?.user?.email).toBe(VICTIM);

    const victim = app.newClient();
    await emailSignIn(victim, VICTIM);
    const victimUser = (await app.adapter.getUserByEmail!(VICTIM)) as AdapterUser;
    expect(victimUser.id).not.toBe(attackerUser.id);
    expect((await victim.session())?.user?.email).toBe(VICTIM);
    // The attacker's session that relied on the address has ended; their user keeps its account.
    expect(await attacker.session()).toBeNull();
    expect(await app.adapter.getUser!(attackerUser.id)).toMatchObject({ email: null });
    await oidcSignIn(attacker, "mallory");
    expect((await attacker.session())?.user).toMatchObject({ email: null, name: "Mallory" });
  });

  it("email_verified true is stored (with emailVerified); no claim needs trustEmail; an explicit false beats trustEmail", async () => {
    const app = await setup();
    const verified = app.newClient();
    await oidcSignIn(verified, "alice");
    expect(await app.adapter.getUserByAccount!({ provider: "op", providerAccountId: "alice" })).toMatchObject({
      email: "alice@example.com",
      emailVerified: expect.any(Date),
    });
    await oidcSignIn(app.newClient(), "quiet");
    expect(await app.adapter.getUserByAccount!({ provider: "op", providerAccountId: "quiet" })).toMatchObject({ email: null });

    const trusting = await setup({ trustEmail: true });
    await oidcSignIn(trusting.newClient(), "quiet");
    expect(await trusting.adapter.getUserByAccount!({ provider: "op", providerAccountId: "quiet" })).toMatchObject({
      email: "quiet@example.com",
    });
    await oidcSignIn(trusting.newClient(), "mallory");
    expect(await trusting.adapter.getUserByAccount!({ provider: "op", providerAccountId: "mallory" })).toMatchObject({ email: null });
  });

  it("without an adapter (JWT only), the session carries no unverified email either", async () => {
    const client = authClient({ secret, trustHost: true, providers: [opProvider(op)] }, origin);
    await oidcSignIn(client, "mallory");
    expect((await client.session())?.user).toMatchObject({ email: null, name: "Mallory" });
  });
});

describe("passkey squatting", () => {
  it("a passkey registered with the victim's address claims nothing; the victim's email link gets their own user", async () => {
    const app = await setup();
    const authenticator = new SoftAuthenticator(origin);
    const squatter = app.newClient();
    // The address is no display name, and beside one it is not read (issue 28).
    const named = await squatter.send(`/auth/webauthn-options/passkey?action=register&name=${VICTIM}`);
    expect(named.headers.get("location")).toBe(`${origin}/auth/error?error=WebAuthnVerificationError`);
    const options = await squatter.send(`/auth/webauthn-options/passkey?action=register&name=Victim&email=${VICTIM}`);
    const { options: publicKey } = (await options.json()) as { options: Parameters<SoftAuthenticator["register"]>[0] };
    const csrfToken = await squatter.csrf();
    const registration = await authenticator.register(publicKey);
    await squatter.send("/auth/callback/passkey", { json: { action: "register", data: JSON.stringify(registration), csrfToken } });
    expect((await squatter.session())?.user).toMatchObject({ email: null, name: "Victim" });
    expect(await app.adapter.getUserByEmail!(VICTIM)).toBeNull();

    const victim = app.newClient();
    expect((await emailSignIn(victim, VICTIM)).headers.get("location")).toBe(`${origin}/inbox`);
    expect((await victim.session())?.user?.email).toBe(VICTIM);
    const victimUser = (await app.adapter.getUserByEmail!(VICTIM)) as AdapterUser;
    expect(await app.adapter.listAuthenticatorsByUserId!(victimUser.id)).toEqual([]);

    // The squatter's passkey still signs in, to the squatter's user only.
    const later = app.newClient();
    const auth = await later.send("/auth/webauthn-options/passkey?action=authenticate");
    const { options: request } = (await auth.json()) as { options: Parameters<SoftAuthenticator["authenticate"]>[0] };
    const assertion = await authenticator.authenticate(request);
    await later.send("/auth/callback/passkey", {
      json: { action: "authenticate", data: JSON.stringify(assertion), csrfToken: await later.csrf() },
    });
    expect((await later.session())?.user).toMatchObject({ email: null, name: "Victim" });
  });
});

describe("single-flight access-token refresh against an OP that rotates refresh tokens", () => {
  async function userinfoStatus(accessToken: string): Promise<number> {
    return (await fetch(userinfoEndpoint, { headers: { authorization: `Bearer ${accessToken}` } })).status;
  }

  it("JWT sessions: 8 parallel session reads → one refresh at the OP, every read sees the same valid tokens", async () => {
    const salt = "authlib.session-token";
    const client = authClient(
      {
        secret,
        trustHost: true,
        providers: [opProvider(op, { refreshAccessToken: true })],
        callbacks: {
          session: ({ session, ...rest }) => ({
            ...session,
            accessToken: "token" in rest ? ((rest.token.oauth as { access_token?: string } | undefined)?.access_token ?? null) : null,
          }),
        },
        logger: { error: () => {} },
      },
      origin,
    );
    await oidcSignIn(client, "alice");
    const payload = (await decode({ token: client.jar.get(salt), secret, salt })) as Record<string, any>;
    payload.oauth.expires_at = Math.floor(Date.now() / 1000) - 10;
    const { iat: _i, exp: _e, jti: _j, ...rest } = payload;
    client.jar.cookies.set(salt, { name: salt, value: await encode({ token: rest, secret, salt }), attributes: {} });
    const before = { ...refreshGrants };

    const sessions = await Promise.all(Array.from({ length: 8 }, () => client.send("/auth/session").then((r) => r.json())));
    expect(refreshGrants.success - before.success).toBe(1);
    expect(refreshGrants.error - before.error).toBe(0);
    for (const session of sessions as Array<Record<string, any>>) expect(session.error).toBeUndefined();
    const tokens = new Set((sessions as Array<Record<string, any>>).map((s) => s.accessToken));
    expect(tokens.size).toBe(1);
    const [accessToken] = [...tokens];
    expect(accessToken).not.toBe(payload.oauth.access_token);
    expect(await userinfoStatus(accessToken)).toBe(200);
    // The grant is alive: the rotated refresh token the cookie now holds refreshes again.
    const after = (await decode({ token: client.jar.get(salt), secret, salt })) as Record<string, any>;
    expect(after.oauth.refresh_token).not.toBe(payload.oauth.refresh_token);
  });

  it("database sessions: 8 parallel session reads → one refresh at the OP, the row holds valid rotated tokens", async () => {
    const app = await setup({ refreshAccessToken: true });
    const client = app.newClient();
    await oidcSignIn(client, "alice");
    const key = { provider: "op", providerAccountId: "alice" };
    const account = (await app.adapter.getAccount!(key.providerAccountId, key.provider))!;
    await app.adapter.updateAccount!({ ...key, expires_at: Math.floor(Date.now() / 1000) - 5 });
    const before = { ...refreshGrants };

    const sessions = await Promise.all(Array.from({ length: 8 }, () => client.session()));
    expect(refreshGrants.success - before.success).toBe(1);
    expect(refreshGrants.error - before.error).toBe(0);
    for (const session of sessions) expect(session?.error).toBeUndefined();
    const after = (await app.adapter.getAccount!(key.providerAccountId, key.provider))!;
    expect(after.refresh_token).not.toBe(account.refresh_token);
    expect(await userinfoStatus(after.access_token as string)).toBe(200);

    // Due again: the rotated token works (the grant was never revoked for reuse).
    await app.adapter.updateAccount!({ ...key, expires_at: Math.floor(Date.now() / 1000) - 5 });
    expect((await client.session())?.error).toBeUndefined();
    expect(refreshGrants.success - before.success).toBe(2);
  });
});

describe("database sessions: the session callback", () => {
  it("receives session.expires as a Date and the user's emailVerified; the client gets an ISO string", async () => {
    const seen: unknown[] = [];
    const app = await setup(
      {},
      {
        callbacks: {
          session: (params) => {
            if ("user" in params) {
              seen.push(params.session.expires);
              return { ...params.session, expires: params.session.expires.toISOString(), emailVerified: params.user.emailVerified };
            }
            return params.session;
          },
        },
      },
    );
    const client = app.newClient();
    await oidcSignIn(client, "alice");
    const session = await client.session();
    expect(seen[0]).toBeInstanceOf(Date);
    expect(session?.expires).toBe((seen[0] as Date).toISOString());
    expect(typeof session?.emailVerified).toBe("string");

    // The default callback too: the client sees the ISO string.
    const plain = await setup();
    const other = plain.newClient();
    await oidcSignIn(other, "alice");
    const defaults = await other.session();
    expect(typeof defaults?.expires).toBe("string");
    expect(new Date(defaults?.expires as string).toISOString()).toBe(defaults?.expires);
  });
});

describe("which presets vouch for an email", () => {
  it("trustEmail only where the provider guarantees a verified address; the email_verified claim decides elsewhere", async () => {
    const { providerVouchesForEmail } = await import("../../src/sign-in/unproven-email.js");
    const presets = await import("../../src/providers/index.js");
    const vouches = (preset: (options?: any) => OAuthConfig, profile: Record<string, unknown>) =>
      providerVouchesForEmail(preset(), profile);
    expect(vouches(presets.GitHub, { email: "a@b.c" })).toBe(true);
    expect(vouches(presets.Bitbucket, { email: "a@b.c" })).toBe(true);
    expect(vouches(presets.Twitter, { email: "a@b.c" })).toBe(true);
    expect(vouches(presets.Discord, { email: "a@b.c", verified: true })).toBe(true);
    expect(vouches(presets.Discord, { email: "a@b.c", verified: false })).toBe(false);
    expect(vouches(presets.MicrosoftEntraID, { email: "a@b.c" })).toBe(false);
    // Entra's email_verified is a tenant admin's word, not proof: the preset never trusts its email.
    expect(vouches(presets.MicrosoftEntraID, { email: "a@b.c", email_verified: true })).toBe(false);
    expect(vouches(presets.MicrosoftEntraID, { email: "a@b.c", email_verified: "true" })).toBe(false);
    expect(vouches(presets.Google, { email: "a@b.c" })).toBe(false);
    expect(vouches(presets.Google, { email: "a@b.c", email_verified: true })).toBe(true);
    expect(vouches(presets.Apple, { email: "a@b.c", email_verified: "true" })).toBe(true);
    expect(vouches(presets.GitHub, { email: "a@b.c", email_verified: false })).toBe(false);
    // An app can still decide for its own provider, e.g. a tenant it controls.
    expect(vouches(() => presets.MicrosoftEntraID({ trustEmail: true }), { email: "a@b.c" })).toBe(true);
  });
});
