/**
 * OAuth / OIDC sign-in end to end through Auth(), against a real OpenID Provider (oidc-provider on
 * 127.0.0.1), with a cookie jar: JWT and database sessions, account linking, concurrency, token refresh.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode, encode } from "../../src/jwt.js";
import Credentials from "../../src/providers/credentials.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase, sharedPglite } from "../helpers/database.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";

/** A debug logger that adds each failure logged at debug to `lines` as `Type: message`. */
function debugFailures(lines: string[]) {
  return (_line: string, metadata?: unknown) => {
    const { type, message } = (metadata ?? {}) as { type?: string; message?: string };
    if (type) lines.push(`${type}: ${message}`);
  };
}

const secret = "oauth-auth-secret-0123456789abcdef";
const origin = "http://localhost:3000";
let op: TestOP;
let endpoints: { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string };

beforeAll(async () => {
  op = await startTestOP({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        redirect_uris: [`${origin}/auth/callback/op`, `${origin}/auth/callback/op-refresh`],
      },
      { client_id: "plain", client_secret: "plain-secret", redirect_uris: [`${origin}/auth/callback/plain`] },
      { client_id: "second", client_secret: "second-secret", redirect_uris: [`${origin}/auth/callback/second`] },
    ],
  });
  endpoints = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as typeof endpoints;
  // PGlite's cold start belongs to the hook, not to the first database test (it can exceed a test's timeout on a loaded machine).
  await sharedPglite().waitReady;
});
afterAll(async () => {
  await op.close();
  await closeSharedPglite();
});

const oidc = (extra: Partial<OAuthConfig> = {}): OAuthConfig => opProvider(op, { checks: ["pkce", "state", "nonce"], ...extra });

function recorder() {
  const calls: Array<[string, any]> = [];
  const config: Partial<AuthConfig> = {
    callbacks: {
      signIn: (p) => {
        calls.push(["signIn", p]);
        return true;
      },
      jwt: (p) => {
        calls.push(["jwt", p]);
        return p.token;
      },
    },
    events: {
      signIn: (m) => void calls.push(["event.signIn", m]),
      createUser: (m) => void calls.push(["event.createUser", m]),
      linkAccount: (m) => void calls.push(["event.linkAccount", m]),
      signOut: (m) => void calls.push(["event.signOut", m]),
    },
  };
  return { calls, config };
}

/** Starts the sign-in, lets the OP log `user` in, and follows the callback. */
async function signInWith(
  client: ReturnType<typeof authClient>,
  providerId: string,
  options: { user?: string; query?: string; deny?: boolean; form?: Record<string, string> } = {},
) {
  const csrfToken = await client.csrf();
  const form = { csrfToken, callbackUrl: "/dashboard", ...options.form };
  const start = await client.send(`/auth/signin/${providerId}${options.query ?? ""}`, { form });
  expect(start.status).toBe(302);
  const authorizationUrl = start.headers.get("location") as string;
  const callback = await op.authorize(authorizationUrl, { user: options.user, deny: options.deny });
  const done = await client.send(callback.pathname + callback.search);
  return { start, authorizationUrl, callback, done };
}

describe("OIDC sign-in through Auth() (JWT sessions, no adapter)", () => {
  it("discovery, PKCE, state and nonce; ends with the expected session", async () => {
    const { calls, config } = recorder();
    const client = authClient({ secret, trustHost: true, providers: [oidc()], ...config });
    const { authorizationUrl, done } = await signInWith(client, "op", { query: "?login_hint=alice&ui_locales=en" });
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(op.issuer);
    for (const param of ["code_challenge", "state", "nonce"]) expect(url.searchParams.get(param)).toBeTruthy();
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("login_hint")).toBe("alice");
    expect(url.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/op`);

    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    // Check cookies are consumed.
    for (const name of ["authlib.state", "authlib.nonce", "authlib.pkce.code_verifier"]) expect(client.jar.get(name)).toBeUndefined();
    const session = await client.session();
    expect(session?.user).toEqual({ name: "Alice Liddell", email: "alice@example.com", image: "https://images.example.com/alice.png" });

    const signIn = calls.find(([n]) => n === "signIn")?.[1];
    expect(signIn.account).toMatchObject({ provider: "op", type: "oidc", providerAccountId: "alice", token_type: "bearer" });
    expect(signIn.account.access_token).toEqual(expect.any(String));
    expect(signIn.account.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(signIn.profile).toMatchObject({ sub: "alice", email: "alice@example.com" });
    const jwt = calls.find(([n]) => n === "jwt")?.[1];
    expect(jwt.trigger).toBe("signIn");
    expect(jwt.profile.sub).toBe("alice");
  });

  it("gives the same user id at every sign-in without an adapter", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [oidc()] };
    const first = authClient(config);
    await signInWith(first, "op");
    const second = authClient(config);
    await signInWith(second, "op");
    const subOf = async (c: ReturnType<typeof authClient>) =>
      (await decode({ token: c.jar.get("authlib.session-token"), secret, salt: "authlib.session-token" }))?.sub;
    expect(await subOf(first)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await subOf(first)).toBe(await subOf(second));
  });

  it("gives two different accounts two different user ids without an adapter, also across providers", async () => {
    const second = oidc({ id: "second", name: "Second", clientId: "second", clientSecret: "second-secret" });
    const config: AuthConfig = { secret, trustHost: true, providers: [oidc(), second] };
    const subOf = async (providerId: string, user: string) => {
      const client = authClient(config);
      await signInWith(client, providerId, { user });
      return (await decode({ token: client.jar.get("authlib.session-token"), secret, salt: "authlib.session-token" }))?.sub;
    };
    const ids = [await subOf("op", "alice"), await subOf("op", "bob"), await subOf("second", "alice")];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("a plain OAuth 2 client with explicit endpoints and userinfo", async () => {
    const plain = {
      id: "plain",
      name: "Plain",
      type: "oauth",
      clientId: "plain",
      clientSecret: "plain-secret",
      issuer: op.issuer,
      authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid profile email" } },
      token: endpoints.token_endpoint,
      userinfo: endpoints.userinfo_endpoint,
    } as OAuthConfig;
    const client = authClient({ secret, trustHost: true, providers: [plain] });
    const { done } = await signInWith(client, "plain", { user: "bob" });
    expect(done.headers.get("location")).toBe(`${origin}/dashboard`);
    expect((await client.session())?.user.name).toBe("Bob Builder");
  });

  it("access denied at the OP ends on the sign-in page with OAuthCallbackError, code access_denied, saying so", async () => {
    const client = authClient({ secret, trustHost: true, providers: [oidc()], logger: { error: () => {} } });
    const { done } = await signInWith(client, "op", { deny: true });
    const location = done.headers.get("location") as string;
    expect(location).toBe(`${origin}/auth/signin?error=OAuthCallbackError&code=access_denied`);
    expect(await client.session()).toBeNull();
    const page = await (await client.send(location)).text();
    expect(page).toContain("The sign-in was cancelled or refused at the provider.");
    expect(page).not.toContain("Try signing in with a different account.");
    expect(page).not.toContain("Error code");
  });

  it("a tampered state fails the sign-in; a callback without the check cookies ends on the error page", async () => {
    const client = authClient({ secret, trustHost: true, providers: [oidc()], logger: { error: () => {} } });
    const csrfToken = await client.csrf();
    const start = await client.send("/auth/signin/op", { form: { csrfToken } });
    const callback = await op.authorize(start.headers.get("location") as string);
    callback.searchParams.set("state", "forged");
    expect((await client.send(callback.pathname + callback.search)).headers.get("location")).toBe(
      `${origin}/auth/signin?error=OAuthCallbackError`,
    );
    expect(await client.session()).toBeNull();
    const stranger = authClient({ secret, trustHost: true, providers: [oidc()], logger: { error: () => {} } });
    const fresh = await signInWith(client, "op");
    const replayedElsewhere = await stranger.send(fresh.callback.pathname + fresh.callback.search);
    expect(replayedElsewhere.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`);
  });

  it("POST /signin/:provider needs the CSRF token", async () => {
    const client = authClient({ secret, trustHost: true, providers: [oidc()] });
    await client.csrf();
    const response = await client.send("/auth/signin/op", { form: { callbackUrl: "/x" } });
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`);
  });
});

describe("OAuth with the hosted-db adapter", () => {
  it("database sessions: one user, one account, one session; a second sign-in reuses them; sign-out deletes the row", async () => {
    const { adapter, client: db } = await freshDatabase();
    const { calls, config } = recorder();
    const authConfig: AuthConfig = { secret, trustHost: true, adapter, providers: [oidc()], ...config };
    const client = authClient(authConfig);
    await signInWith(client, "op");
    const token = client.jar.get("authlib.session-token") as string;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.session())?.user.email).toBe("alice@example.com");
    const count = async (table: string) => Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n);
    expect([
      await count(db.db.authlib_users.sqlName),
      await count(db.db.authlib_accounts.sqlName),
      await count(db.db.authlib_sessions.sqlName),
    ]).toEqual([1, 1, 1]);
    expect(calls.filter(([n]) => n === "event.createUser")).toHaveLength(1);
    expect(calls.filter(([n]) => n === "event.linkAccount")).toHaveLength(1);
    expect(calls.find(([n]) => n === "event.signIn")?.[1].isNewUser).toBe(true);
    expect(calls.filter(([n]) => n === "jwt")).toHaveLength(0);

    const again = authClient(authConfig);
    await signInWith(again, "op");
    expect([
      await count(db.db.authlib_users.sqlName),
      await count(db.db.authlib_accounts.sqlName),
      await count(db.db.authlib_sessions.sqlName),
    ]).toEqual([1, 1, 2]);
    expect(calls.filter(([n]) => n === "event.createUser")).toHaveLength(1);
    expect(calls.filter(([n]) => n === "event.signIn").at(-1)?.[1].isNewUser).toBe(false);

    const csrfToken = await client.csrf();
    await client.send("/auth/signout", { form: { csrfToken } });
    expect(await adapter.getSessionAndUser!(token)).toBeNull();
    expect(await count(db.db.authlib_sessions.sqlName)).toBe(1);
    expect(calls.find(([n]) => n === "event.signOut")?.[1].session.sessionToken).toBe(token);
  });

  it("JWT sessions with an adapter: the jwt callback sees trigger signUp for a new user, signIn after", async () => {
    const { adapter } = await freshDatabase();
    const { calls, config } = recorder();
    const authConfig: AuthConfig = { secret, trustHost: true, adapter, session: { strategy: "jwt" }, providers: [oidc()], ...config };
    await signInWith(authClient(authConfig), "op");
    await signInWith(authClient(authConfig), "op");
    const triggers = calls.filter(([n]) => n === "jwt").map(([, p]) => [p.trigger, p.isNewUser]);
    expect(triggers).toEqual([
      ["signUp", true],
      ["signIn", false],
    ]);
  });

  it("an email collision is OAuthAccountNotLinked unless dangerous linking is allowed", async () => {
    const { adapter } = await freshDatabase();
    await adapter.createUser!({ id: crypto.randomUUID(), email: "alice@example.com", emailVerified: new Date(), name: "Existing Alice" });
    const errors: string[] = [];
    // A user's expected refusal: logged at debug (src/http/log-level.ts), with its type and message.
    const logger = { error: (error: Error) => void errors.push(`${error.name}: ${error.message}`), debug: debugFailures(errors) };
    const refused = authClient({ secret, trustHost: true, adapter, providers: [oidc()], logger, debug: true });
    expect((await signInWith(refused, "op")).done.headers.get("location")).toBe(`${origin}/auth/signin?error=OAuthAccountNotLinked`);
    // The log says why (the page only shows the code).
    expect(errors).toEqual([
      "OAuthAccountNotLinked: Another account already uses this email address. Sign in with that account first, then link this one.",
    ]);
    const { calls, config } = recorder();
    const allowed = authClient({
      secret,
      trustHost: true,
      adapter,
      providers: [oidc({ allowDangerousEmailAccountLinking: true })],
      ...config,
    });
    await signInWith(allowed, "op");
    expect((await allowed.session())?.user.name).toBe("Existing Alice");
    // Linked into the existing user: not a new user (no signUp, no createUser).
    expect(calls.filter(([n]) => n === "event.signIn").map(([, m]) => m.isNewUser)).toEqual([false]);
    expect(calls.filter(([n]) => n === "event.createUser")).toHaveLength(0);
  });

  // Changed with issue 12: the unproven holder used to refuse the sign-in (OAuthAccountNotLinked), locking
  // the verified owner out; now the address moves to the owner and the holder keeps their passkey.
  it("dangerous email linking never links into a user whose email is unproven; the verified owner gets the address", async () => {
    const { adapter } = await freshDatabase();
    const squatter = await adapter.createUser!({ id: crypto.randomUUID(), email: "alice@example.com", emailVerified: null });
    await adapter.createAuthenticator!({
      credentialID: "squat",
      userId: squatter.id,
      providerAccountId: "squat",
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "AAAA",
      credentialDeviceType: "singleDevice",
    });
    const client = authClient({ secret, trustHost: true, adapter, providers: [oidc({ allowDangerousEmailAccountLinking: true })] });
    expect((await signInWith(client, "op")).done.headers.get("location")).toBe(`${origin}/dashboard`);
    const owner = await adapter.getUserByAccount!({ provider: "op", providerAccountId: "alice" });
    expect(owner?.id).not.toBe(squatter.id);
    expect(owner).toMatchObject({ email: "alice@example.com", emailVerified: expect.any(Date) });
    expect(await adapter.getUser!(squatter.id)).toMatchObject({ email: null });
    expect(await adapter.getAuthenticator!("squat")).toMatchObject({ userId: squatter.id });
  });

  it("a revoked JWT (the jwt callback returns null) does not count as signed in when linking", async () => {
    const { adapter } = await freshDatabase();
    const revoked = new Set<string>();
    const mallory = await adapter.createUser!({ id: crypto.randomUUID(), email: "mallory@example.com", emailVerified: null });
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      callbacks: { jwt: ({ token }) => (token.sub && revoked.has(token.sub) ? null : token) },
      providers: [oidc(), Credentials({ authorize: () => mallory })],
    };
    const client = authClient(config);
    const csrfToken = await client.csrf();
    await client.send("/auth/callback/credentials", { form: { csrfToken } });
    revoked.add(mallory.id);
    expect(await client.session()).toBeNull();
    // Replay the revoked cookie while signing in with the OP: the account must not land on mallory.
    const stolen = client.jar.get("authlib.session-token");
    const thief = authClient(config);
    thief.jar.cookies.set("authlib.session-token", { name: "authlib.session-token", value: stolen as string, attributes: {} });
    await signInWith(thief, "op");
    const owner = await adapter.getUserByAccount!({ provider: "op", providerAccountId: "alice" });
    expect(owner?.email).toBe("alice@example.com");
    expect(owner?.id).not.toBe(mallory.id);
  });

  it("response_mode=form_post: the cross-site POST is bounced to a GET that carries the cookies, then signs in", async () => {
    const client = authClient({
      secret,
      trustHost: true,
      providers: [oidc({ authorization: { params: { response_mode: "form_post" } } })],
    });
    const csrfToken = await client.csrf();
    const start = await client.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/after-post" } });
    expect(new URL(start.headers.get("location") as string).searchParams.get("response_mode")).toBe("form_post");
    const callback = await op.authorize(start.headers.get("location") as string);
    const posted = Object.fromEntries(callback.searchParams);
    // A browser sends no SameSite=Lax cookie with a cross-site POST: post without the jar's cookies.
    const bounce = await client.send("/auth/callback/op", { form: posted, headers: { cookie: "" } });
    expect(bounce.status).toBe(302);
    const next = new URL(bounce.headers.get("location") as string);
    expect(next.pathname).toBe("/auth/callback/op");
    expect(next.searchParams.get("code")).toBe(posted.code);
    const done = await client.send(next.pathname + next.search);
    expect(done.headers.get("location")).toBe(`${origin}/after-post`);
    expect((await client.session())?.user.email).toBe("alice@example.com");
  });

  it("a signed-in user links a second provider to the same user (explicit link=true)", async () => {
    const { adapter, client: db } = await freshDatabase();
    const { calls, config } = recorder();
    const second = oidc({ id: "second", name: "Second", clientId: "second", clientSecret: "second-secret" });
    const client = authClient({ secret, trustHost: true, adapter, providers: [oidc(), second], ...config });
    await signInWith(client, "op");
    // Linking is an explicit intent: without link=true this callback is OAuthAccountNotLinked (planted-cookies.test.ts).
    await signInWith(client, "second", { form: { link: "true" } });
    const accounts = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.db.authlib_accounts.sqlName}`);
    const users = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.db.authlib_users.sqlName}`);
    expect([accounts.rows[0]?.n, users.rows[0]?.n]).toEqual([2, 1]);
    expect(calls.filter(([n]) => n === "event.linkAccount")).toHaveLength(2);
    // The link adds an account to the signed-in user and is no sign-in: one signIn event, of the new user.
    expect(calls.filter(([n]) => n === "event.signIn").map(([, m]) => m.isNewUser)).toEqual([true]);
    // The signIn callback is told about the link: the signed-in user the account is about to join (only then).
    const asked = calls.filter(([n]) => n === "signIn").map(([, p]) => p);
    expect(asked[0]).not.toHaveProperty("link");
    expect(asked[1]?.link?.user?.id).toBe(calls.find(([n]) => n === "event.createUser")?.[1]?.user?.id);
    expect(asked[1]?.account).toMatchObject({ provider: "second" });
  });

  it("a signed-in user signing in again with a provider already linked to them stays the same user, nothing new linked", async () => {
    const { adapter, client: db } = await freshDatabase();
    const { calls, config } = recorder();
    const client = authClient({ secret, trustHost: true, adapter, providers: [oidc()], ...config });
    await signInWith(client, "op");
    const firstUser = (await client.session())?.user;
    const again = await signInWith(client, "op");
    expect(again.done.headers.get("location")).toBe(`${origin}/dashboard`);
    expect((await client.session())?.user).toEqual(firstUser);
    const accounts = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.db.authlib_accounts.sqlName}`);
    const users = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.db.authlib_users.sqlName}`);
    expect([accounts.rows[0]?.n, users.rows[0]?.n]).toEqual([1, 1]);
    expect(calls.filter(([n]) => n === "event.linkAccount")).toHaveLength(1);
    expect(calls.filter(([n]) => n === "event.createUser")).toHaveLength(1);
    const signIns = calls.filter(([n]) => n === "event.signIn").map(([, m]) => m.isNewUser);
    expect(signIns).toEqual([true, false]);
  });

  it("an account linked to another user cannot be taken over by a signed-in user", async () => {
    const { adapter } = await freshDatabase();
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      providers: [
        oidc(),
        Credentials({
          authorize: async () => adapter.createUser!({ id: crypto.randomUUID(), email: "mallory@example.com", emailVerified: null }),
        }),
      ],
    };
    await signInWith(authClient(config), "op"); // alice's account now belongs to alice's user
    const errors: string[] = [];
    config.logger = { error: (error) => void errors.push(`${error.name}: ${error.message}`), debug: debugFailures(errors) };
    config.debug = true;
    const mallory = authClient(config);
    const csrfToken = await mallory.csrf();
    await mallory.send("/auth/callback/credentials", { form: { csrfToken } });
    expect((await signInWith(mallory, "op")).done.headers.get("location")).toBe(`${origin}/auth/signin?error=OAuthAccountNotLinked`);
    expect(errors).toContain("OAuthAccountNotLinked: This account is already linked to another user.");
  });

  it("a first sign-in that loses the race to another instance removes the user it created and signs in as the winner", async () => {
    const { adapter, client: db } = await freshDatabase();
    const { calls, config } = recorder();
    let winnerId: string | undefined;
    // Another instance finishes the same first sign-in between this one's createUser and linkAccount (what
    // PGlite's serialised connection never lets the 50 parallel sign-ins above do): this linkAccount then
    // fails on the unique (provider, providerAccountId) constraint.
    const racing: typeof adapter = {
      ...adapter,
      linkAccount: async (account) => {
        if (winnerId === undefined) {
          const winner = await adapter.createUser!({ id: crypto.randomUUID(), email: null, emailVerified: null, name: "Winner" });
          winnerId = winner.id;
          await adapter.linkAccount!({ ...account, userId: winner.id });
        }
        return adapter.linkAccount!(account);
      },
    };
    const client = authClient({ secret, trustHost: true, adapter: racing, providers: [oidc()], ...config });
    expect((await signInWith(client, "op")).done.headers.get("location")).toBe(`${origin}/dashboard`);
    expect((await client.session())?.user).toMatchObject({ name: "Winner" });
    const users = await db.query<{ id: string }>(`SELECT id FROM ${db.db.authlib_users.sqlName}`);
    expect(users.rows.map((row) => row.id)).toEqual([winnerId]);
    // The loser made no user of its own: no createUser or linkAccount event, and not a new user.
    expect(calls.filter(([n]) => n === "event.createUser" || n === "event.linkAccount")).toHaveLength(0);
    expect(calls.filter(([n]) => n === "event.signIn").map(([, m]) => m.isNewUser)).toEqual([false]);
  });

  it("50 parallel first sign-ins of the same account create exactly one user and one account", async () => {
    const { adapter, client: db } = await freshDatabase();
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [oidc()] };
    const flows = [];
    for (let i = 0; i < 50; i++) {
      const client = authClient(config);
      const csrfToken = await client.csrf();
      const start = await client.send("/auth/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } });
      flows.push({ client, callback: await op.authorize(start.headers.get("location") as string) });
    }
    const results = await Promise.all(flows.map(({ client, callback }) => client.send(callback.pathname + callback.search)));
    expect(results.map((r) => r.headers.get("location"))).toEqual(Array(50).fill(`${origin}/dashboard`));
    const one = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n;
    expect(await one(db.db.authlib_users.sqlName)).toBe(1);
    expect(await one(db.db.authlib_accounts.sqlName)).toBe(1);
    expect(await one(db.db.authlib_sessions.sqlName)).toBe(50);
    const sessions = await Promise.all(flows.map(({ client }) => client.session()));
    expect(new Set(sessions.map((s) => s?.user.email))).toEqual(new Set(["alice@example.com"]));
  }, 120_000);
});

describe("access-token refresh (JWT sessions)", () => {
  const refreshing = () => oidc({ id: "op-refresh", refreshAccessToken: true });
  const salt = "authlib.session-token";

  async function expireStoredAccessToken(
    client: ReturnType<typeof authClient>,
    mutate: (oauth: Record<string, unknown>) => void = () => {},
  ) {
    const payload = (await decode({ token: client.jar.get(salt), secret, salt })) as Record<string, any>;
    payload.oauth.expires_at = Math.floor(Date.now() / 1000) - 10;
    mutate(payload.oauth);
    const { iat, exp, jti, ...rest } = payload;
    const token = await encode({ token: rest, secret, salt });
    client.jar.cookies.set(salt, { name: salt, value: token, attributes: {} });
    return payload.oauth as { access_token: string; refresh_token: string };
  }

  it("refreshes an expiring access token, rotating the refresh token, and never shows tokens to the client", async () => {
    const client = authClient({ secret, trustHost: true, providers: [refreshing()] });
    await signInWith(client, "op-refresh");
    const session = await client.session();
    expect(JSON.stringify(session)).not.toMatch(/access_token|refresh_token/);
    const before = await expireStoredAccessToken(client);
    const response = await client.send("/auth/session");
    expect(((await response.json()) as { error?: string }).error).toBeUndefined();
    const after = ((await decode({ token: client.jar.get(salt), secret, salt })) as Record<string, any>).oauth;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 60);
  });

  it("a failed refresh surfaces as session.error = RefreshTokenError", async () => {
    const client = authClient({ secret, trustHost: true, providers: [refreshing()], logger: { error: () => {} } });
    await signInWith(client, "op-refresh");
    await expireStoredAccessToken(client, (oauth) => {
      oauth.refresh_token = "revoked-or-forged";
    });
    const session = await client.session();
    expect(session?.error).toBe("RefreshTokenError");
    expect(session?.user.email).toBe("alice@example.com");
  });
});

describe("access-token refresh (database sessions)", () => {
  const refreshing = () => oidc({ id: "op-refresh", refreshAccessToken: true });

  async function setup() {
    const { adapter } = await freshDatabase();
    const client = authClient({ secret, trustHost: true, adapter, providers: [refreshing()], logger: { error: () => {} } });
    await signInWith(client, "op-refresh");
    const session = await client.session();
    const [account] = await adapter.listAccountsByUserId!((await adapter.getUserByEmail!("alice@example.com"))!.id);
    expect(session?.user.email).toBe("alice@example.com");
    return { adapter, client, account: account! };
  }

  it("refreshes a due access token in the account row, rotating the refresh token", async () => {
    const { adapter, client, account } = await setup();
    await adapter.updateAccount!({
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      expires_at: Math.floor(Date.now() / 1000) - 5,
    });
    const session = await client.session();
    expect(session?.error).toBeUndefined();
    const after = (await adapter.getAccount!(account.providerAccountId, account.provider))!;
    expect(after.access_token).not.toBe(account.access_token);
    expect(after.refresh_token).not.toBe(account.refresh_token);
    expect(after.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 60);
  });

  it("a failed refresh surfaces as session.error = RefreshTokenError", async () => {
    const { adapter, client, account } = await setup();
    await adapter.updateAccount!({
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      refresh_token: "forged",
      expires_at: Math.floor(Date.now() / 1000) - 5,
    });
    expect((await client.session())?.error).toBe("RefreshTokenError");
  });
});
