/**
 * What a session check does, for both strategies (session/jwt.ts, session/database.ts), driven through
 * `Auth()` with cheap in-memory state (the in-memory adapter of helpers/memory-adapter.ts, a mocked token
 * endpoint): expiry and sliding updates (`maxAge`, `updateAge`), what the `jwt` and `session` callbacks
 * receive and may change, database session lookup, extension and deletion, expired sessions refused,
 * access-token refresh and its failures (session/refresh.ts), and the strategies called directly. The
 * slower suites (PGlite, a real OpenID Provider) state the same behaviour end to end.
 */
import { createClient, type RedisClientType } from "redis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/crypto/digest.js";
import { decode, encode, type JWT } from "../../src/jwt.js";
import { instanceFor } from "../../src/kernel/auth.js";
import { resolvedConfigOf } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import type { OAuthConfig, TokenSet } from "../../src/providers/types.js";
import { redisRateLimitStore } from "../../src/rate-limit/redis.js";
import { databaseSessionStrategy } from "../../src/session/database.js";
import { copyJson } from "../../src/session/json-shape.js";
import { jwtSessionStrategy } from "../../src/session/jwt.js";
import { attachOAuthTokens, OAUTH_CLAIM, REUSE_GRACE_MS, refreshAccountsIfDue, refreshIfDue } from "../../src/session/refresh.js";
import type { LeaseStore } from "../../src/session/refresh-lease.js";
import type { Adapter, AdapterAccount, AdapterSession } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

const refreshMock = vi.hoisted(() => ({
  fn: undefined as undefined | ((provider: { id: string }, refreshToken: string) => Promise<unknown>),
}));
// The refresh grant's own module (the session code loads the OAuth client, which imports it, on first use).
vi.mock("../../src/oauth/refresh.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/oauth/refresh.js")>();
  return {
    ...original,
    refreshAccessToken: (provider: { id: string }, refreshToken: string) =>
      refreshMock.fn ? refreshMock.fn(provider, refreshToken) : Promise.reject(new Error("no token endpoint in this test")),
  };
});

const secret = "session-testsuite-secret-0123456789abcdef";
const COOKIE = "authlib.session-token";
const NOW = 1_900_000_000_000;
const DAY = 24 * 60 * 60;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  refreshMock.fn = undefined;
});
afterEach(() => vi.useRealTimers());

const seconds = () => Math.floor(Date.now() / 1000);
const advance = (s: number) => vi.setSystemTime(Date.now() + s * 1000);

/** A credentials provider signing in `username` as user `u-<username>`. */
const credentials = () =>
  Credentials({
    credentials: { username: {} },
    authorize: (c) =>
      c.username ? { id: `u-${String(c.username)}`, name: String(c.username), email: `${String(c.username)}@example.com` } : null,
  });

/** An OAuth provider whose access tokens authlib refreshes (its token endpoint is the mock above). */
function refreshingProvider(id = "acme"): OAuthConfig {
  return {
    id,
    name: "Acme",
    type: "oauth",
    clientId: "client",
    clientSecret: "client-secret",
    authorization: "https://acme.example/authorize",
    token: "https://acme.example/token",
    userinfo: "https://acme.example/userinfo",
    refreshAccessToken: true,
    profile: (p: Record<string, unknown>) => ({ id: String(p.sub) }),
  } as unknown as OAuthConfig;
}

async function signIn(client: ReturnType<typeof authClient>, username = "ada") {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username } });
  expect(response.status).toBe(302);
  return csrfToken;
}

function setCookie(response: { setCookies: Array<{ name: string; value: string; attributes: Record<string, unknown> }> }, name = COOKIE) {
  return response.setCookies.find((c) => c.name === name);
}

async function getSession(client: ReturnType<typeof authClient>, headers?: Record<string, string>) {
  const response = await client.send("/auth/session", headers ? { headers } : {});
  return { response, body: (await response.json()) as Record<string, any> | null };
}

// ---------------------------------------------------------------------------------------------------------
// JWT sessions
// ---------------------------------------------------------------------------------------------------------

function jwtSetup(overrides: Partial<AuthConfig> = {}) {
  const errors: Error[] = [];
  const warnings: string[] = [];
  const events: Array<[string, any]> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [credentials()],
    session: { maxAge: 10 * DAY, updateAge: DAY },
    logger: { error: (error) => errors.push(error), warn: (code) => void warnings.push(code) },
    events: {
      session: (m) => void events.push(["session", m]),
      signOut: (m) => void events.push(["signOut", m]),
    },
    ...overrides,
  };
  return { config, errors, warnings, events, client: authClient(config) };
}

async function tokenOf(client: ReturnType<typeof authClient>) {
  return (await decode({ token: client.jar.get(COOKIE), secret, salt: COOKIE })) as JWT;
}

describe("JWT sessions: expiry and sliding updates", () => {
  it("a new session cookie lives maxAge, and the token expires then too", async () => {
    const { client } = jwtSetup();
    await signIn(client);
    const cookie = client.jar.cookies.get(COOKIE);
    expect((cookie?.attributes.expires as Date | undefined)?.valueOf()).toBe(NOW - (NOW % 1000) + 10 * DAY * 1000);
    const token = await tokenOf(client);
    expect(token.iat).toBe(seconds());
    const { body, response } = await getSession(client);
    expect(body?.expires).toBe(new Date((token.exp as number) * 1000).toISOString());
    expect(setCookie(response)).toBeUndefined();
  });

  it("before updateAge has passed the cookie is not re-issued; once it has, a new cookie runs maxAge from now", async () => {
    const { client } = jwtSetup();
    await signIn(client);
    const first = client.jar.get(COOKIE);
    advance(DAY - 1);
    const early = await getSession(client);
    expect(setCookie(early.response)).toBeUndefined();
    expect(early.body?.expires).toBe(new Date(NOW - (NOW % 1000) + 10 * DAY * 1000).toISOString());
    advance(1);
    const due = await getSession(client);
    const reissued = setCookie(due.response);
    expect(reissued?.value).toBeTruthy();
    expect(reissued?.value).not.toBe(first);
    expect((reissued?.attributes.expires as Date | undefined)?.valueOf()).toBe(Date.now() - (Date.now() % 1000) + 10 * DAY * 1000);
    expect(due.body?.expires).toBe(new Date(Date.now() + 10 * DAY * 1000).toISOString());
    expect((await tokenOf(client)).iat).toBe(seconds());
  });

  it("updateAge 0 re-issues the cookie on every check", async () => {
    const { client } = jwtSetup({ session: { maxAge: 10 * DAY, updateAge: 0 } });
    await signIn(client);
    expect(setCookie((await getSession(client)).response)).toBeDefined();
  });

  it("an expired token is no session, and its cookie is cleared", async () => {
    const { client, errors, warnings } = jwtSetup();
    await signIn(client);
    advance(10 * DAY + 120);
    const { body, response } = await getSession(client);
    expect(body).toBeNull();
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
    // A session that ended is expected: logged at debug (src/http/log-level.ts), neither an error nor a warning.
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("without a cookie there is no session and no cookie is written", async () => {
    const { client, errors } = jwtSetup();
    const { body, response } = await getSession(client);
    expect(body).toBeNull();
    expect(response.setCookies).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("a token without iat is due for re-issue; a token without exp reports maxAge from now", async () => {
    const calls: JWT[] = [];
    const { client } = jwtSetup({
      jwt: {
        encode: ({ token }) => JSON.stringify(token),
        decode: ({ token }) => (token ? (JSON.parse(token) as JWT) : null),
      },
      callbacks: {
        jwt: ({ token }) => {
          calls.push(token);
          return token;
        },
      },
    });
    const plain = { name: "ada", sub: "u-ada" };
    const response = await client.send("/auth/session", { headers: { cookie: `${COOKIE}=${encodeURIComponent(JSON.stringify(plain))}` } });
    const body = (await response.json()) as Record<string, any>;
    expect(setCookie(response)?.value).toBe(JSON.stringify(plain));
    expect(body.expires).toBe(new Date(NOW + 10 * DAY * 1000).toISOString());
    const withIat = { ...plain, iat: seconds() };
    const fresh = await client.send("/auth/session", { headers: { cookie: `${COOKIE}=${encodeURIComponent(JSON.stringify(withIat))}` } });
    expect(setCookie(fresh)).toBeUndefined();
    expect(((await fresh.json()) as Record<string, any>).expires).toBe(new Date(NOW + 10 * DAY * 1000).toISOString());
  });
});

describe("JWT sessions: the jwt and session callbacks", () => {
  it("the session built from the token has name, email and image (null when absent), and the session callback sees the token", async () => {
    const seen: any[] = [];
    const { client, events } = jwtSetup({
      callbacks: {
        session: (params) => {
          seen.push(params);
          return params.session;
        },
      },
    });
    await signIn(client);
    const { body } = await getSession(client);
    expect(body?.user).toEqual({ name: "ada", email: "ada@example.com", image: null });
    expect(seen[0].token).toMatchObject({ name: "ada", email: "ada@example.com", sub: "u-ada" });
    expect(events.find(([k]) => k === "session")?.[1].token).toMatchObject({ sub: "u-ada" });
    expect(events.find(([k]) => k === "session")?.[1].session.user.name).toBe("ada");
  });

  it("a token without name or email shows them as null", async () => {
    const { client } = jwtSetup();
    const token = await encode({ token: { sub: "x", picture: "https://img.example/x.png" }, secret, salt: COOKIE });
    const { body } = await getSession(client, { cookie: `${COOKIE}=${token}` });
    expect(body?.user).toEqual({ name: null, email: null, image: "https://img.example/x.png" });
  });

  it("a jwt callback that changes the token gets a new cookie carrying the change", async () => {
    let extra: string | undefined;
    const { client } = jwtSetup({ callbacks: { jwt: ({ token }) => (extra ? { ...token, role: extra } : token) } });
    await signIn(client);
    expect(setCookie((await getSession(client)).response)).toBeUndefined();
    extra = "admin";
    const { response } = await getSession(client);
    expect(setCookie(response)).toBeDefined();
    expect((await tokenOf(client)).role).toBe("admin");
  });

  it("a jwt callback that edits the token in place is noticed too", async () => {
    const { client } = jwtSetup({
      callbacks: {
        jwt: ({ token }) => {
          token.visits = ((token.visits as number | undefined) ?? 0) + 1;
          return token;
        },
      },
    });
    await signIn(client);
    const { response } = await getSession(client);
    expect(setCookie(response)).toBeDefined();
    expect((await tokenOf(client)).visits).toBe(2);
  });

  it("a jwt callback that returns null ends the session and clears the cookie", async () => {
    let revoke = false;
    const { client } = jwtSetup({ callbacks: { jwt: ({ token }) => (revoke ? null : token) } });
    await signIn(client);
    revoke = true;
    const { body, response } = await getSession(client);
    expect(body).toBeNull();
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
  });

  it("an update (POST /session) reaches the jwt callback with trigger update and the data, and always re-issues", async () => {
    const seen: any[] = [];
    const { client } = jwtSetup({
      callbacks: {
        jwt: (params) => {
          seen.push(params);
          return params.token;
        },
      },
    });
    const csrfToken = await signIn(client);
    seen.length = 0;
    await getSession(client);
    expect(seen[0]).not.toHaveProperty("trigger");
    expect(seen[0]).not.toHaveProperty("session");
    const response = await client.send("/auth/session", { method: "POST", json: { csrfToken, data: { theme: "dark" } } });
    expect(response.status).toBe(200);
    expect(seen[1]).toMatchObject({ trigger: "update", session: { theme: "dark" } });
    expect(setCookie(response)).toBeDefined();
  });

  it("sign-in hands the jwt callback user, account, isNewUser and trigger signIn; a null token writes no session", async () => {
    const seen: any[] = [];
    const { client } = jwtSetup({
      callbacks: {
        jwt: (params) => {
          seen.push(params);
          return params.token;
        },
      },
    });
    await signIn(client);
    expect(seen[0]).toMatchObject({
      trigger: "signIn",
      isNewUser: false,
      user: { id: "u-ada" },
      token: { name: "ada", email: "ada@example.com", sub: "u-ada" },
    });
    const fresh = jwtSetup({ callbacks: { jwt: () => null } });
    const csrfToken = await fresh.client.csrf();
    const response = await fresh.client.send("/auth/callback/credentials", { form: { csrfToken, username: "bob" } });
    expect(fresh.client.jar.get(COOKIE)).toBeUndefined();
    expect(setCookie(response)?.attributes.maxAge ?? 0).toBe(0);
  });
});

describe("JWT sessions: decoding", () => {
  it("a custom decode that throws an unexpected error is logged as JWTSessionError with the error as cause", async () => {
    const failure = new TypeError("kms unreachable");
    const { client, errors } = jwtSetup({ jwt: { decode: () => Promise.reject(failure) } });
    const { body, response } = await getSession(client, { cookie: `${COOKIE}=whatever` });
    expect(body).toBeNull();
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.name).toBe("JWTSessionError");
    expect(errors[0]?.message).toContain("Could not decode the session token.");
    expect((errors[0] as Error & { cause?: { err?: unknown } }).cause?.err).toBe(failure);
  });

  it("a custom decode's own JWTSessionError is a refused cookie: the session-cookie-refused warning, no error", async () => {
    const { JWTSessionError } = await import("../../src/errors.js");
    const failure = new JWTSessionError("revoked");
    const { client, errors, warnings } = jwtSetup({ jwt: { decode: () => Promise.reject(failure) } });
    await getSession(client, { cookie: `${COOKIE}=whatever` });
    expect(errors).toEqual([]);
    expect(warnings).toEqual(["session-cookie-refused"]);
  });

  it("a custom decode runs on every check (it may revoke), and a token it refuses is no session", async () => {
    let calls = 0;
    let refuse = false;
    const { client } = jwtSetup({
      jwt: {
        encode: ({ token }) => JSON.stringify(token),
        decode: ({ token }) => {
          calls++;
          return refuse || !token ? null : (JSON.parse(token) as JWT);
        },
      },
    });
    await signIn(client);
    await getSession(client);
    await getSession(client);
    expect(calls).toBe(2);
    refuse = true;
    const { body, response } = await getSession(client);
    expect(body).toBeNull();
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
  });
});

describe("JWT sessions: sign-out", () => {
  it("signOut receives the token and the cookie is cleared; without a session cookie no signOut event fires", async () => {
    const { client, events } = jwtSetup();
    const csrfToken = await signIn(client);
    const response = await client.send("/auth/signout", { form: { csrfToken } });
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
    const signOut = events.filter(([k]) => k === "signOut");
    expect(signOut).toHaveLength(1);
    expect(signOut[0]?.[1].token).toMatchObject({ sub: "u-ada", name: "ada" });
    await client.send("/auth/signout", { form: { csrfToken } });
    expect(events.filter(([k]) => k === "signOut")).toHaveLength(1);
  });

  it("signing out with an unreadable cookie still fires signOut (token null) and clears it", async () => {
    const { client, events } = jwtSetup({ logger: { error: () => {} } });
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/signout", {
      form: { csrfToken },
      headers: { cookie: `${client.jar.header()}; ${COOKIE}=garbage` },
    });
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
    expect(events.filter(([k]) => k === "signOut").map(([, m]) => m.token)).toEqual([null]);
  });
});

describe("JWT sessions: legacy cookie names", () => {
  it("while migrating, a session under the __Secure- name (https) is moved to the __Host- name", async () => {
    const client = authClient({ secret, trustHost: true, acceptAuthjsSessions: true, providers: [credentials()] }, "https://app.example");
    const token = await encode({ token: { sub: "u-ada", name: "ada" }, secret, salt: `__Secure-${COOKIE}` });
    const { body, response } = await getSession(client, { cookie: `__Secure-${COOKIE}=${token}` });
    expect(body?.user.name).toBe("ada");
    expect(setCookie(response, `__Secure-${COOKIE}`)?.attributes.maxAge).toBe(0);
    const moved = setCookie(response, `__Host-${COOKIE}`);
    expect(moved?.value).toBeTruthy();
    expect(await decode({ token: moved?.value, secret, salt: `__Host-${COOKIE}` })).toMatchObject({ sub: "u-ada" });
  });

  it("while migrating, signing in over https clears a session cookie left under the __Secure- name", async () => {
    const client = authClient({ secret, trustHost: true, acceptAuthjsSessions: true, providers: [credentials()] }, "https://app.example");
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      form: { csrfToken, username: "ada" },
      headers: { cookie: `${client.jar.header()}; __Secure-${COOKIE}=old` },
    });
    expect(setCookie(response, `__Secure-${COOKIE}`)?.attributes.maxAge).toBe(0);
    expect(setCookie(response, `__Host-${COOKIE}`)?.value).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Database sessions
// ---------------------------------------------------------------------------------------------------------

function dbSetup(overrides: Partial<AuthConfig> = {}, adapterOverrides: Partial<Adapter> = {}) {
  const memory = memoryAdapter();
  memory.users.set("u1", { id: "u1", email: "ada@example.com", emailVerified: null, name: "Ada" });
  const errors: Error[] = [];
  const events: Array<[string, any]> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: { ...memory.adapter, ...adapterOverrides },
    session: { strategy: "database", maxAge: 10 * DAY, updateAge: DAY },
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: ({ email }) =>
          email === "by-id" ? { id: "u1", name: "whatever" } : email ? { id: "app-id", email: String(email) } : null,
      }),
    ],
    logger: { error: (error) => errors.push(error) },
    events: {
      session: (m) => void events.push(["session", m]),
      signOut: (m) => void events.push(["signOut", m]),
    },
    ...overrides,
  };
  return { ...memory, config, errors, events, client: authClient(config) };
}

async function dbSignIn(client: ReturnType<typeof authClient>, email = "ADA@example.com") {
  const csrfToken = await client.csrf();
  const response = await client.send("/auth/callback/credentials", { form: { csrfToken, email } });
  return Object.assign(response, { csrfToken });
}

describe("database sessions: start, lookup and expiry", () => {
  it("sign-in stores a session for maxAge with a fresh token for the adapter's user (found by id, else lower-cased email)", async () => {
    const { client, sessions } = dbSetup();
    const response = await dbSignIn(client);
    expect(response.status).toBe(302);
    const [stored] = [...sessions.values()];
    expect(stored?.userId).toBe("u1");
    expect(stored?.expires.valueOf()).toBe(NOW + 10 * DAY * 1000);
    expect(client.jar.get(COOKIE)).toBe(stored?.sessionToken);
    expect(stored?.sessionToken).toMatch(/^[0-9a-f-]{36}$/);
    const byId = dbSetup();
    await dbSignIn(byId.client, "by-id");
    expect([...byId.sessions.values()][0]?.userId).toBe("u1");
  });

  it("a custom generateSessionToken names the session", async () => {
    const { client, sessions } = dbSetup({ session: { strategy: "database", generateSessionToken: () => "my-token" } });
    await dbSignIn(client);
    expect([...sessions.keys()]).toEqual(["my-token"]);
    expect(client.jar.get(COOKIE)).toBe("my-token");
  });

  it("a user the adapter does not know cannot start a session (UnknownCredentialsUser, logged with the fix)", async () => {
    const { client, sessions, errors } = dbSetup();
    const response = await dbSignIn(client, "nobody@example.com");
    expect(response.headers.get("location")).toContain("error=");
    expect(sessions.size).toBe(0);
    const error = errors.find((e) => e.name === "UnknownCredentialsUser");
    expect(error?.message).toContain("authorize() returned a user the adapter does not know");
  });

  it("the session check returns the user, expires as an ISO string, and fires the session event", async () => {
    const { client, events } = dbSetup();
    await dbSignIn(client);
    const { body, response } = await getSession(client);
    expect(body?.user).toMatchObject({ email: "ada@example.com", name: "Ada" });
    expect(body?.expires).toBe(new Date(NOW + 10 * DAY * 1000).toISOString());
    expect(body).not.toHaveProperty("error");
    expect(setCookie(response)).toBeUndefined();
    expect(events.find(([k]) => k === "session")?.[1].session.user.email).toBe("ada@example.com");
  });

  it("before updateAge has passed the session is not extended; once it has, it is extended to maxAge from now", async () => {
    const { client, calls, sessions } = dbSetup();
    await dbSignIn(client);
    advance(DAY - 1);
    const early = await getSession(client);
    expect(calls.filter(([m]) => m === "updateSession")).toEqual([]);
    expect(setCookie(early.response)).toBeUndefined();
    advance(1);
    const due = await getSession(client);
    const token = client.jar.get(COOKIE) as string;
    expect(calls.filter(([m]) => m === "updateSession")).toEqual([
      ["updateSession", { sessionToken: token, expires: new Date(Date.now() + 10 * DAY * 1000) }],
    ]);
    expect(sessions.get(token)?.expires.valueOf()).toBe(Date.now() + 10 * DAY * 1000);
    const cookie = setCookie(due.response);
    expect(cookie?.value).toBe(token);
    expect((cookie?.attributes.expires as Date | undefined)?.valueOf()).toBe(Date.now() + 10 * DAY * 1000);
    expect(due.body?.expires).toBe(new Date(Date.now() + 10 * DAY * 1000).toISOString());
  });

  it("updateAge 0 extends the session on every check", async () => {
    const { client, calls } = dbSetup({ session: { strategy: "database", maxAge: 10 * DAY, updateAge: 0 } });
    await dbSignIn(client);
    await getSession(client);
    expect(calls.filter(([m]) => m === "updateSession")).toHaveLength(1);
  });

  it("an adapter whose updateSession returns nothing still reports the new expiry", async () => {
    const { client } = dbSetup({}, { updateSession: () => undefined });
    await dbSignIn(client);
    advance(DAY);
    const { body } = await getSession(client);
    expect(body?.expires).toBe(new Date(Date.now() + 10 * DAY * 1000).toISOString());
  });

  it("an expired session is refused, deleted and its cookie cleared; a session expiring this instant still counts", async () => {
    const { client, calls, sessions } = dbSetup();
    await dbSignIn(client);
    const token = client.jar.get(COOKIE) as string;
    advance(10 * DAY);
    expect((await getSession(client)).body?.user.email).toBe("ada@example.com");
    sessions.set(token, { ...(sessions.get(token) as AdapterSession), expires: new Date(Date.now() - 1) });
    const { body, response } = await getSession(client);
    expect(body).toBeNull();
    expect(calls).toContainEqual(["deleteSession", token]);
    expect(sessions.has(token)).toBe(false);
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
  });

  it("an unknown session token is no session and its cookie is cleared", async () => {
    const { client } = dbSetup();
    const { body, response } = await getSession(client, { cookie: `${COOKIE}=not-a-session` });
    expect(body).toBeNull();
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
  });

  it("without a cookie there is no session, no adapter call and no cookie", async () => {
    const { client, calls } = dbSetup();
    const { body, response } = await getSession(client);
    expect(body).toBeNull();
    expect(calls).toEqual([]);
    expect(response.setCookies).toEqual([]);
  });

  it("a chunk-named session cookie (database tokens are never chunked) is no session: every such cookie is cleared", async () => {
    const { client, calls, sessions } = dbSetup();
    await dbSignIn(client);
    const token = client.jar.get(COOKIE) as string;
    const { body, response } = await getSession(client, { cookie: `${COOKIE}=${token}; ${COOKIE}.0=planted` });
    expect(body).toBeNull();
    expect(calls.filter(([m]) => m === "getSessionAndUser")).toEqual([]);
    expect(setCookie(response, `${COOKIE}.0`)?.attributes.maxAge).toBe(0);
    expect(setCookie(response)?.attributes.maxAge).toBe(0);
    expect(sessions.has(token)).toBe(true);
  });

  it("an adapter failing to read is no session, logged as SessionTokenError with the cause", async () => {
    const failure = new Error("db down");
    const { client, errors } = dbSetup({}, { getSessionAndUser: () => Promise.reject(failure) });
    const { body, response } = await getSession(client, { cookie: `${COOKIE}=some-token` });
    expect(body).toBeNull();
    expect(response.setCookies).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.name).toBe("SessionTokenError");
    expect(errors[0]?.message).toBe("Could not read the database session.");
    expect((errors[0] as Error & { cause?: { err?: Error } }).cause?.err?.message).toContain("getSessionAndUser");
  });

  it("an adapter failing to extend keeps the session as it was, logged as SessionTokenError with the cause", async () => {
    const failure = new Error("db read-only");
    const { client, errors } = dbSetup({}, { updateSession: () => Promise.reject(failure) });
    await dbSignIn(client);
    advance(DAY);
    const { body, response } = await getSession(client);
    expect(body?.user.email).toBe("ada@example.com");
    expect(body?.expires).toBe(new Date(NOW + 10 * DAY * 1000).toISOString());
    expect(setCookie(response)).toBeUndefined();
    expect(errors.map((e) => [e.name, e.message])).toEqual([["SessionTokenError", "Could not extend the database session."]]);
    expect((errors[0] as Error & { cause?: { err?: Error } }).cause?.err?.message).toContain("updateSession");
  });
});

describe("database sessions: the session callback", () => {
  it("receives the stored session (expires as a Date) with the user, and the user; its result is what the client sees", async () => {
    const seen: any[] = [];
    const { client } = dbSetup({
      callbacks: {
        session: (params) => {
          seen.push(params);
          return { ...params.session, role: "admin" } as never;
        },
      },
    });
    await dbSignIn(client);
    const { body } = await getSession(client);
    expect(seen[0].session.expires).toBeInstanceOf(Date);
    expect(seen[0].session.user).toMatchObject({ id: "u1", email: "ada@example.com" });
    expect(seen[0].session.userId).toBe("u1");
    expect(seen[0].user).toMatchObject({ id: "u1" });
    expect(seen[0]).not.toHaveProperty("trigger");
    expect(seen[0]).not.toHaveProperty("newSession");
    expect(body?.role).toBe("admin");
  });

  it("an update reaches it with trigger update and the new data", async () => {
    const seen: any[] = [];
    const { client } = dbSetup({
      callbacks: {
        session: (params) => {
          seen.push(params);
          return params.session;
        },
      },
    });
    const { csrfToken } = await dbSignIn(client);
    const response = await client.send("/auth/session", { method: "POST", json: { csrfToken, data: { theme: "dark" } } });
    expect(response.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ trigger: "update", newSession: { theme: "dark" } });
  });

  it("an expires the callback returns as a string is passed through", async () => {
    const { client } = dbSetup({ callbacks: { session: ({ session }) => ({ ...session, expires: "2031-01-01T00:00:00.000Z" }) as never } });
    await dbSignIn(client);
    expect((await getSession(client)).body?.expires).toBe("2031-01-01T00:00:00.000Z");
  });
});

describe("database sessions: sign-out and legacy names", () => {
  it("sign-out deletes the session, fires signOut with it and clears the cookie", async () => {
    const { client, sessions, events } = dbSetup();
    const { csrfToken } = await dbSignIn(client);
    const token = client.jar.get(COOKIE) as string;
    const response = await client.send("/auth/signout", { form: { csrfToken } });
    expect(sessions.has(token)).toBe(false);
    expect(events.filter(([k]) => k === "signOut").map(([, m]) => m.session?.sessionToken)).toEqual([token]);
    expect(response.setCookies.filter((c) => c.name === COOKIE).map((c) => c.attributes.maxAge)).toEqual([0]);
    expect((await getSession(client)).body).toBeNull();
  });

  it("sign-out without a session cookie deletes nothing and fires no event", async () => {
    const { client, calls, events } = dbSetup();
    const csrfToken = await client.csrf();
    await client.send("/auth/signout", { form: { csrfToken } });
    expect(calls).toEqual([]);
    expect(events).toEqual([]);
  });

  it("while migrating, a session under the __Secure- name (https) is moved to the __Host- name, even when no update is due", async () => {
    const { config, sessions, calls } = dbSetup({ acceptAuthjsSessions: true });
    sessions.set("legacy-token", { sessionToken: "legacy-token", userId: "u1", expires: new Date(NOW + 10 * DAY * 1000 - 1000) });
    const client = authClient(config, "https://app.example");
    const { body, response } = await getSession(client, { cookie: `__Secure-${COOKIE}=legacy-token` });
    expect(body?.user.email).toBe("ada@example.com");
    expect(setCookie(response, `__Secure-${COOKIE}`)?.attributes.maxAge).toBe(0);
    expect(setCookie(response, `__Host-${COOKIE}`)?.value).toBe("legacy-token");
    expect(calls.filter(([m]) => m === "updateSession")).toHaveLength(1);
    expect(sessions.get("legacy-token")?.expires.valueOf()).toBe(NOW + 10 * DAY * 1000);
  });

  it("signing out a legacy-named session without a __Host- cookie (a sign-out form of the old app) deletes it and clears both names", async () => {
    const { config, sessions } = dbSetup({ acceptAuthjsSessions: true });
    sessions.set("legacy-token", { sessionToken: "legacy-token", userId: "u1", expires: new Date(NOW + 5 * DAY * 1000) });
    const { options: plain, request } = direct(config);
    const options = { ...plain, cookies: resolveAuth(config).cookies(true) } as InternalOptions;
    const cleared = await databaseSessionStrategy.end(options, request({ [`__Secure-${COOKIE}`]: "legacy-token" }));
    expect(sessions.has("legacy-token")).toBe(false);
    expect(cleared.map((c) => [c.name, c.options.maxAge])).toEqual([
      [`__Secure-${COOKIE}`, 0],
      [`__Host-${COOKIE}`, 0],
    ]);
  });

  it("next to authlib's __Host- CSRF cookie, a legacy-named cookie is not read, even by sign-out (it can only be planted)", async () => {
    const { config, sessions } = dbSetup({ acceptAuthjsSessions: true });
    sessions.set("legacy-token", { sessionToken: "legacy-token", userId: "u1", expires: new Date(NOW + 5 * DAY * 1000) });
    const client = authClient(config, "https://app.example");
    const csrfToken = await client.csrf();
    await client.send("/auth/signout", {
      form: { csrfToken },
      headers: { cookie: `${client.jar.header()}; __Secure-${COOKIE}=legacy-token` },
    });
    expect(sessions.has("legacy-token")).toBe(true);
  });

  it("while migrating, signing in over https clears a session cookie left under the __Secure- name", async () => {
    const { config } = dbSetup({ acceptAuthjsSessions: true });
    const client = authClient(config, "https://app.example");
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      form: { csrfToken, email: "ada@example.com" },
      headers: { cookie: `${client.jar.header()}; __Secure-${COOKIE}=old` },
    });
    expect(setCookie(response, `__Secure-${COOKIE}`)?.attributes.maxAge).toBe(0);
    expect(setCookie(response, `__Host-${COOKIE}`)?.value).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Access-token refresh
// ---------------------------------------------------------------------------------------------------------

/** Records every call of the mocked token endpoint and answers with `answer` (or its rejection). */
function tokenEndpoint(answer: (provider: string, refreshToken: string) => TokenSet | Error | Promise<TokenSet>) {
  const calls: Array<[string, string]> = [];
  refreshMock.fn = async (provider, refreshToken) => {
    calls.push([provider.id, refreshToken]);
    const result = await answer(provider.id, refreshToken);
    if (result instanceof Error) throw result;
    return result;
  };
  return calls;
}

/** Just enough of the internal options for the refresh functions. */
function refreshOptions(extra: Partial<InternalOptions> = {}) {
  const errors: Error[] = [];
  const options = {
    providers: [refreshingProvider("acme"), { ...refreshingProvider("plain"), refreshAccessToken: false }, credentials()],
    logger: { error: (e: Error) => errors.push(e), warn: () => {}, debug: () => {} },
    capabilities: {},
    rateLimits: { config: undefined },
    ...extra,
  } as unknown as InternalOptions;
  return { options, errors };
}

let unique = 0;
/** A refresh token no other test used (the single-flight state is per process). */
const rt = (label = "rt") => `${label}-${++unique}-${Math.random().toString(36).slice(2)}`;

describe("JWT sessions: access-token refresh", () => {
  const stored = (over: Record<string, unknown> = {}) => ({
    provider: "acme",
    access_token: "old-access",
    refresh_token: rt(),
    expires_at: seconds() + 60,
    ...over,
  });

  it("a token within a minute of expiry is refreshed; the new tokens replace the old and a previous error is dropped", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new-access", refresh_token: "new-refresh", expires_at: seconds() + 3600 }));
    const { options } = refreshOptions();
    const oauth = stored();
    const token = await refreshIfDue(options, { sub: "u", error: "RefreshTokenError", [OAUTH_CLAIM]: oauth });
    expect(calls).toEqual([["acme", oauth.refresh_token]]);
    expect(token).toEqual({
      sub: "u",
      [OAUTH_CLAIM]: { provider: "acme", access_token: "new-access", refresh_token: "new-refresh", expires_at: seconds() + 3600 },
    });
  });

  it("a token with more than a minute left, without expiry, or without a refresh token is left alone", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const { options } = refreshOptions();
    for (const oauth of [stored({ expires_at: seconds() + 61 }), stored({ expires_at: undefined }), stored({ refresh_token: "" })]) {
      const token = { sub: "u", [OAUTH_CLAIM]: oauth };
      expect(await refreshIfDue(options, token)).toBe(token);
    }
    const none = { sub: "u" };
    expect(await refreshIfDue(options, none)).toBe(none);
    expect(calls).toEqual([]);
  });

  it("tokens of a provider that does not refresh (or is no longer configured) are left alone", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const { options } = refreshOptions();
    for (const provider of ["plain", "gone", "credentials"]) {
      const token = { sub: "u", [OAUTH_CLAIM]: stored({ provider, expires_at: seconds() - 100 }) };
      expect(await refreshIfDue(options, token)).toBe(token);
    }
    expect(calls).toEqual([]);
  });

  it("an answer without a new refresh or access token keeps the old ones", async () => {
    tokenEndpoint(() => ({ token_type: "bearer" }));
    const { options } = refreshOptions();
    const oauth = stored({ expires_at: seconds() - 5 });
    const token = await refreshIfDue(options, { sub: "u", [OAUTH_CLAIM]: oauth });
    expect(token[OAUTH_CLAIM]).toEqual({ provider: "acme", access_token: "old-access", refresh_token: oauth.refresh_token });
  });

  it("a failed refresh is logged, drops the provider's tokens and marks the token RefreshTokenError", async () => {
    const failure = new Error("invalid_grant");
    tokenEndpoint(() => failure);
    const { options, errors } = refreshOptions();
    const token = await refreshIfDue(options, { sub: "u", name: "ada", [OAUTH_CLAIM]: stored() });
    expect(token).toEqual({ sub: "u", name: "ada", error: "RefreshTokenError" });
    expect(errors).toEqual([failure]);
  });

  it("concurrent checks with the same refresh token spend it once, and late ones within the grace period reuse the result", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let n = 0;
    const calls = tokenEndpoint(async () => {
      await gate;
      return { access_token: `access-${++n}`, refresh_token: `refresh-${n}`, expires_at: seconds() + 3600 };
    });
    const { options } = refreshOptions();
    const oauth = stored();
    const pending = [1, 2, 3].map(() => refreshIfDue(options, { sub: "u", [OAUTH_CLAIM]: oauth }));
    release();
    const results = await Promise.all(pending);
    expect(calls).toHaveLength(1);
    expect(new Set(results.map((t) => (t[OAUTH_CLAIM] as { access_token: string }).access_token))).toEqual(new Set(["access-1"]));
    advance(REUSE_GRACE_MS / 1000 - 1);
    const late = await refreshIfDue(options, { sub: "u", [OAUTH_CLAIM]: { ...oauth, expires_at: seconds() } });
    expect((late[OAUTH_CLAIM] as { access_token: string }).access_token).toBe("access-1");
    expect(calls).toHaveLength(1);
    advance(1);
    const after = await refreshIfDue(options, { sub: "u", [OAUTH_CLAIM]: { ...oauth, expires_at: seconds() } });
    expect((after[OAUTH_CLAIM] as { access_token: string }).access_token).toBe("access-2");
    expect(calls).toHaveLength(2);
  });

  it("the same refresh token at two providers is two refreshes", async () => {
    const calls = tokenEndpoint((provider) => ({ access_token: `from-${provider}` }));
    const { options } = refreshOptions({ providers: [refreshingProvider("acme"), refreshingProvider("other")] } as never);
    const shared = rt();
    const a = await refreshIfDue(options, { [OAUTH_CLAIM]: stored({ refresh_token: shared }) });
    const b = await refreshIfDue(options, { [OAUTH_CLAIM]: stored({ provider: "other", refresh_token: shared }) });
    expect(calls.map(([p]) => p)).toEqual(["acme", "other"]);
    expect((b[OAUTH_CLAIM] as { access_token: string }).access_token).toBe("from-other");
    expect((a[OAUTH_CLAIM] as { access_token: string }).access_token).toBe("from-acme");
  });

  it("a failed refresh is not remembered: the next check tries again", async () => {
    let fail = true;
    const calls = tokenEndpoint(() => (fail ? new Error("temporarily down") : { access_token: "ok" }));
    const { options } = refreshOptions();
    const oauth = stored();
    expect((await refreshIfDue(options, { [OAUTH_CLAIM]: oauth })).error).toBe("RefreshTokenError");
    fail = false;
    expect(((await refreshIfDue(options, { [OAUTH_CLAIM]: oauth }))[OAUTH_CLAIM] as { access_token: string }).access_token).toBe("ok");
    expect(calls).toHaveLength(2);
  });

  it("through Auth(): a failed refresh shows session.error RefreshTokenError and the cookie no longer holds provider tokens", async () => {
    tokenEndpoint(() => new Error("invalid_grant"));
    const { client } = jwtSetup({ providers: [credentials(), refreshingProvider("acme")] });
    const token = await encode({ token: { sub: "u-ada", name: "ada", [OAUTH_CLAIM]: stored() }, secret, salt: COOKIE });
    const { body, response } = await getSession(client, { cookie: `${COOKIE}=${token}` });
    expect(body?.error).toBe("RefreshTokenError");
    expect(body?.user.name).toBe("ada");
    const reissued = (await decode({ token: setCookie(response)?.value, secret, salt: COOKIE })) as JWT;
    expect(reissued).not.toHaveProperty(OAUTH_CLAIM);
    expect(reissued.error).toBe("RefreshTokenError");
  });

  it("through Auth(): a session whose token carries another error string shows no error", async () => {
    const { client } = jwtSetup();
    const token = await encode({ token: { sub: "u-ada", name: "ada", error: "SomethingElse" }, secret, salt: COOKIE });
    const { body } = await getSession(client, { cookie: `${COOKIE}=${token}` });
    expect(body).not.toHaveProperty("error");
  });
});

describe("attaching provider tokens at sign-in", () => {
  const account = { provider: "acme", type: "oauth", providerAccountId: "1", access_token: "at", refresh_token: "rt", expires_at: 123 };

  it("a refreshing provider's tokens go into the session token", () => {
    const { options } = refreshOptions();
    expect(attachOAuthTokens(options, { sub: "u" }, account as never)).toEqual({
      sub: "u",
      [OAUTH_CLAIM]: { provider: "acme", access_token: "at", refresh_token: "rt", expires_at: 123 },
    });
  });

  it("nothing is attached without a refresh token, an access token, an account, or a refreshing provider", () => {
    const { options } = refreshOptions();
    const token = { sub: "u" };
    for (const a of [
      { ...account, refresh_token: undefined },
      { ...account, access_token: undefined },
      { ...account, provider: "plain" },
      null,
      undefined,
    ]) {
      expect(attachOAuthTokens(options, token, a as never)).toBe(token);
    }
  });
});

describe("database sessions: access-token refresh", () => {
  function accountStore(rows: AdapterAccount[], extra: Record<string, unknown> = {}) {
    const writes: Array<[string, unknown, unknown?]> = [];
    const store = {
      listAccountsByUserId: (userId: string) => rows.filter((r) => r.userId === userId).map((r) => ({ ...r })),
      updateAccount: (tokens: unknown) => void writes.push(["updateAccount", tokens]),
      ...extra,
    };
    return { store, writes };
  }
  const row = (over: Partial<AdapterAccount> = {}): AdapterAccount =>
    ({
      userId: "u1",
      type: "oauth",
      provider: "acme",
      providerAccountId: `pa-${++unique}`,
      access_token: "old-access",
      refresh_token: rt(),
      expires_at: seconds() + 60,
      ...over,
    }) as AdapterAccount;

  it("a due account is refreshed and its row updated (id_token kept only when given; the old refresh token when none is returned)", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new-access", expires_at: seconds() + 3600 }));
    const due = row();
    const { store, writes } = accountStore([due, row({ expires_at: seconds() + 61 }), row({ userId: "someone-else", expires_at: 0 })]);
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    expect(await refreshAccountsIfDue(options, "u1")).toBe(true);
    expect(calls).toEqual([["acme", due.refresh_token]]);
    expect(writes).toEqual([
      [
        "updateAccount",
        {
          provider: "acme",
          providerAccountId: due.providerAccountId,
          access_token: "new-access",
          refresh_token: due.refresh_token,
          expires_at: seconds() + 3600,
        },
      ],
    ]);
    tokenEndpoint(() => ({ access_token: "a2", refresh_token: "r2", id_token: "id2", expires_at: 5 }));
    await refreshAccountsIfDue(options, "u1");
    expect(writes[1]?.[1]).toMatchObject({ refresh_token: "r2", id_token: "id2" });
  });

  it("accounts of non-refreshing providers, without a refresh token or without expiry are not refreshed", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const { store, writes } = accountStore([
      row({ provider: "plain", expires_at: 0 }),
      row({ provider: "gone", expires_at: 0 }),
      row({ refresh_token: undefined, expires_at: 0 }),
      row({ expires_at: undefined }),
    ]);
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    expect(await refreshAccountsIfDue(options, "u1")).toBe(true);
    expect(calls).toEqual([]);
    expect(writes).toEqual([]);
  });

  it("without an account-token store, or without a refreshing provider, nothing is listed", async () => {
    const listed: string[] = [];
    const store = {
      listAccountsByUserId: (id: string) => {
        listed.push(id);
        return [];
      },
      updateAccount: () => null,
    };
    expect(await refreshAccountsIfDue(refreshOptions().options, "u1")).toBe(true);
    const plainOnly = refreshOptions({ capabilities: { accountTokens: store }, providers: [credentials()] } as never);
    expect(await refreshAccountsIfDue(plainOnly.options, "u1")).toBe(true);
    expect(listed).toEqual([]);
  });

  it("a failed refresh is logged and reported (false), the other accounts are still refreshed", async () => {
    const failure = new Error("invalid_grant");
    const bad = row();
    const good = row();
    const calls = tokenEndpoint((_p, token) => (token === bad.refresh_token ? failure : { access_token: "fresh" }));
    const { store, writes } = accountStore([bad, good]);
    const { options, errors } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    expect(await refreshAccountsIfDue(options, "u1")).toBe(false);
    expect(errors).toEqual([failure]);
    expect(calls).toHaveLength(2);
    expect(writes).toHaveLength(1);
  });

  it("the row is re-read first: an account another instance already refreshed is not refreshed again", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const listed = row({ expires_at: 0 });
    const reread: Array<[string, string]> = [];
    const { store, writes } = accountStore([listed], {
      getAccount: (providerAccountId: string, provider: string) => {
        reread.push([providerAccountId, provider]);
        return { ...listed, expires_at: seconds() + 3600 };
      },
    });
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    expect(await refreshAccountsIfDue(options, "u1")).toBe(true);
    expect(reread).toEqual([[listed.providerAccountId, "acme"]]);
    expect(calls).toEqual([]);
    expect(writes).toEqual([]);
    const gone = accountStore([listed], { getAccount: () => null });
    expect(await refreshAccountsIfDue(refreshOptions({ capabilities: { accountTokens: gone.store } } as never).options, "u1")).toBe(true);
    expect(calls).toEqual([]);
  });

  it("without getAccount the row is re-read from the user's list by provider and provider account id", async () => {
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const listed = row({ expires_at: 0 });
    // Listed first: the same provider account id at another provider, and another account at the same provider.
    const samePaOtherProvider = row({ provider: "plain", providerAccountId: listed.providerAccountId, expires_at: seconds() + 3600 });
    const otherAccount = row({ expires_at: seconds() + 3600 });
    const { store, writes } = accountStore([samePaOtherProvider, otherAccount, listed]);
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    expect(await refreshAccountsIfDue(options, "u1")).toBe(true);
    expect(calls).toEqual([["acme", listed.refresh_token]]);
    expect(writes).toEqual([["updateAccount", expect.objectContaining({ providerAccountId: listed.providerAccountId })]]);
  });

  it("with swapAccountTokens the new tokens are written only over the spent refresh token", async () => {
    tokenEndpoint(() => ({ access_token: "new", refresh_token: "rotated" }));
    const listed = row({ expires_at: 0 });
    const swaps: unknown[] = [];
    const { store, writes } = accountStore([listed], {
      swapAccountTokens: (tokens: unknown, previous: string) => void swaps.push([tokens, previous]),
    });
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    await refreshAccountsIfDue(options, "u1");
    expect(writes).toEqual([]);
    expect(swaps).toEqual([[expect.objectContaining({ refresh_token: "rotated", access_token: "new" }), listed.refresh_token]]);
  });

  it("concurrent checks of two accounts refresh each", async () => {
    const calls = tokenEndpoint((_p, token) => ({ access_token: `for-${token}` }));
    const one = row({ expires_at: 0, userId: "u1" });
    const two = row({ expires_at: 0, userId: "u2" });
    const { store, writes } = accountStore([one, two]);
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    await Promise.all([refreshAccountsIfDue(options, "u1"), refreshAccountsIfDue(options, "u2")]);
    expect(calls.map(([, t]) => t).sort()).toEqual([one.refresh_token, two.refresh_token].sort());
    expect(writes).toHaveLength(2);
  });

  it("concurrent checks refresh one account once", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = tokenEndpoint(async () => {
      await gate;
      return { access_token: "new" };
    });
    const listed = row({ expires_at: 0 });
    const { store } = accountStore([listed]);
    const { options } = refreshOptions({ capabilities: { accountTokens: store } } as never);
    const pending = [refreshAccountsIfDue(options, "u1"), refreshAccountsIfDue(options, "u1")];
    release();
    expect(await Promise.all(pending)).toEqual([true, true]);
    expect(calls).toHaveLength(1);
  });

  it("through Auth(): a failed refresh shows session.error RefreshTokenError; a good one shows none", async () => {
    const { client, accounts } = dbSetup({
      providers: [Credentials({ credentials: { email: {} }, authorize: () => ({ id: "u1" }) }), refreshingProvider("acme")],
    });
    accounts.push(row({ expires_at: 0, refresh_token: "bad" }));
    tokenEndpoint((_p, token) => (token === "bad" ? new Error("invalid_grant") : { access_token: "ok" }));
    await dbSignIn(client);
    const { body } = await getSession(client);
    expect(body?.error).toBe("RefreshTokenError");
    expect(body?.user.email).toBe("ada@example.com");
    accounts[0] = { ...(accounts[0] as AdapterAccount), refresh_token: "good" };
    expect((await getSession(client)).body).not.toHaveProperty("error");
  });
});

const redisUp = await redisAnswers("the database-session refresh under the Redis lease");

// A short test timeout: a refresh that waits on a held lease for no reason fails here in seconds.
describe.skipIf(!redisUp)("database sessions: access-token refresh under the instances' lease (Redis)", { timeout: 3_000 }, () => {
  let client: RedisClientType;
  let leases: LeaseStore;
  const prefix = `authlib-strategies-lease-${Math.random().toString(36).slice(2)}:`;
  beforeAll(async () => {
    client = await createClient({ url: redisURL }).connect();
    leases = redisRateLimitStore({ client, prefix }) as LeaseStore;
  });
  afterAll(async () => {
    for (const key of await client.keys(`${prefix}*`)) await client.del(key);
    await client.quit();
  });

  const due = (): AdapterAccount =>
    ({
      userId: "u1",
      type: "oauth",
      provider: "acme",
      providerAccountId: `pa-lease-${++unique}`,
      access_token: "old-access",
      refresh_token: rt(),
      expires_at: 0,
    }) as AdapterAccount;
  /** The lease key of an account: its provider and provider account id, hashed. */
  const keyOf = async (a: AdapterAccount) => `authlib:lease:refresh:${await sha256Hex(`acme\u0000${a.providerAccountId}`)}`;
  /** An account-token store whose getAccount answers, read after read, from `reads` (the last one repeats). */
  function rows(listed: AdapterAccount, reads: Array<AdapterAccount | null>) {
    const writes: unknown[] = [];
    let read = 0;
    const store = {
      listAccountsByUserId: () => [{ ...listed }],
      getAccount: () => {
        const answer = reads[Math.min(read++, reads.length - 1)];
        return answer ? { ...answer } : null;
      },
      updateAccount: (tokens: unknown) => void writes.push(tokens),
    };
    return { store, writes, reads: () => read };
  }
  const leasing = (store: unknown) =>
    refreshOptions({ capabilities: { accountTokens: store }, rateLimits: { config: { store: leases } } } as never);

  it("a free lease: the account's lease is held while the provider is called, the row re-read under it, then released", async () => {
    const listed = due();
    const key = await keyOf(listed);
    let heldDuringCall: string | null = "not called";
    const calls = tokenEndpoint(async () => {
      heldDuringCall = await leases.lease(key, 60_000);
      return { access_token: "new", refresh_token: "rotated", expires_at: 99 };
    });
    const { store, writes, reads } = rows(listed, [listed]);
    const { options, errors } = leasing(store);
    expect(await refreshAccountsIfDue(options, "u1")).toBe(true);
    expect(heldDuringCall).toBeNull();
    expect(calls).toEqual([["acme", listed.refresh_token]]);
    expect(reads()).toBe(2); // once before the lease, once under it
    expect(writes).toEqual([expect.objectContaining({ refresh_token: "rotated", access_token: "new", expires_at: 99 })]);
    const after = await leases.lease(key, 60_000);
    expect(after).not.toBeNull(); // released
    await leases.release(key, after as string);
    expect(errors).toEqual([]);
  });

  it("under the lease, a row that another instance refreshed since the first read is not refreshed again", async () => {
    const listed = due();
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    for (const since of [{ ...listed, refresh_token: "theirs" }, { ...listed, expires_at: 1 }, null]) {
      const { store, writes, reads } = rows(listed, [listed, since]);
      expect(await refreshAccountsIfDue(leasing(store).options, "u1")).toBe(true);
      expect(reads()).toBe(2);
      expect(writes).toEqual([]);
    }
    expect(calls).toEqual([]);
  });

  it("a lease another instance holds: waits until the row shows its new tokens (or the account is gone), without calling the provider", async () => {
    const listed = due();
    const key = await keyOf(listed);
    const holder = (await leases.lease(key, 60_000)) as string;
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    for (const since of [
      { ...listed, refresh_token: "theirs" },
      { ...listed, expires_at: 1 },
      { ...listed, refresh_token: undefined },
      null,
    ]) {
      const { store, writes, reads } = rows(listed, [listed, listed, since]);
      expect(await refreshAccountsIfDue(leasing(store).options, "u1")).toBe(true);
      expect(reads()).toBe(3); // the first read, one unchanged wait, the changed row
      expect(writes).toEqual([]);
    }
    expect(calls).toEqual([]);
    await leases.release(key, holder);
  });

  it("a holder that releases without refreshing: the waiting instance takes the lease and spends the row's refresh token", async () => {
    const listed = due();
    const key = await keyOf(listed);
    const holder = (await leases.lease(key, 60_000)) as string;
    setTimeout(() => void leases.release(key, holder), 60);
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const { store, writes } = rows(listed, [listed]);
    expect(await refreshAccountsIfDue(leasing(store).options, "u1")).toBe(true);
    expect(calls).toEqual([["acme", listed.refresh_token]]);
    expect(writes).toHaveLength(1);
  });

  it("an account whose first re-read is no longer due takes no lease", async () => {
    const listed = due();
    const key = await keyOf(listed);
    const holder = (await leases.lease(key, 60_000)) as string; // a wait would time out the test
    const calls = tokenEndpoint(() => ({ access_token: "new" }));
    const { store, reads } = rows(listed, [{ ...listed, expires_at: seconds() + 3600 }]);
    expect(await refreshAccountsIfDue(leasing(store).options, "u1")).toBe(true);
    expect(reads()).toBe(1);
    expect(calls).toEqual([]);
    await leases.release(key, holder);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The strategies called directly: what no HTTP route reaches with a credentials sign-in
// ---------------------------------------------------------------------------------------------------------

/** The resolved configuration of the instance `Auth()` keeps for `config`. */
const resolveAuth = (config: AuthConfig) => resolvedConfigOf(instanceFor(config));

/** The options `Auth()` would build for `config` (http), and a request carrying `cookies`. */
function direct(config: AuthConfig) {
  const resolved = resolveAuth(config);
  if (!resolved.options) throw resolved.error;
  const options = { ...resolved.options, providers: resolved.providers, cookies: resolved.cookies(false) } as unknown as InternalOptions;
  const request = (cookies: Record<string, string> = {}) => ({ cookies }) as unknown as RequestInternal;
  return { options, request };
}

describe("JWT strategy: sign-in and the signed-in user", () => {
  it("a new user's sign-in reaches the jwt callback with trigger signUp", async () => {
    const seen: any[] = [];
    const { config } = jwtSetup({
      callbacks: {
        jwt: (params) => {
          seen.push(params);
          return params.token;
        },
      },
    });
    const { options, request } = direct(config);
    const user = { id: "u-new", name: "New", email: "new@example.com", image: "https://img.example/n.png" };
    const cookies = await jwtSessionStrategy.start(options, request(), { user, account: null, isNewUser: true });
    expect(seen[0]).toMatchObject({ trigger: "signUp", isNewUser: true, user, account: null });
    expect(seen[0].token).toEqual({ name: "New", email: "new@example.com", picture: "https://img.example/n.png", sub: "u-new" });
    const written = cookies.find((c) => c.name === COOKIE);
    expect(await decode({ token: written?.value, secret, salt: COOKIE })).toMatchObject({ sub: "u-new" });
  });

  it("a refreshing provider's tokens from the sign-in are kept in the session token (never in the session)", async () => {
    const { config } = jwtSetup({ providers: [credentials(), refreshingProvider("acme")] });
    const { options, request } = direct(config);
    const account = { provider: "acme", type: "oauth", providerAccountId: "1", access_token: "at", refresh_token: "rt", expires_at: 9 };
    const cookies = await jwtSessionStrategy.start(options, request(), { user: { id: "u" }, account: account as never, isNewUser: false });
    const token = (await decode({ token: cookies.find((c) => c.name === COOKIE)?.value, secret, salt: COOKIE })) as JWT;
    expect(token[OAUTH_CLAIM]).toEqual({ provider: "acme", access_token: "at", refresh_token: "rt", expires_at: 9 });
  });

  it("a sign-in the jwt callback refuses clears an existing session cookie", async () => {
    const { config } = jwtSetup({ callbacks: { jwt: () => null } });
    const { options, request } = direct(config);
    const cookies = await jwtSessionStrategy.start(options, request({ [COOKIE]: "previous" }), {
      user: { id: "u" },
      account: null,
      isNewUser: false,
    });
    expect(cookies.map((c) => [c.name, c.value, c.options.maxAge])).toEqual([[COOKIE, "", 0]]);
  });

  it("currentUser is the token's subject; nobody without a cookie, with a refused token, or without sub", async () => {
    let refuse = false;
    const { config } = jwtSetup({ callbacks: { jwt: ({ token }) => (refuse ? null : token) } });
    const { options, request } = direct(config);
    const cookie = await encode({ token: { sub: "u-ada", name: "ada", email: "ada@example.com", picture: "p.png" }, secret, salt: COOKIE });
    expect(await jwtSessionStrategy.currentUser(options, request({ [COOKIE]: cookie }))).toEqual({
      id: "u-ada",
      name: "ada",
      email: "ada@example.com",
      image: "p.png",
    });
    expect(await jwtSessionStrategy.currentUser(options, request())).toBeNull();
    const noSub = await encode({ token: { name: "ada" }, secret, salt: COOKIE });
    expect(await jwtSessionStrategy.currentUser(options, request({ [COOKIE]: noSub }))).toBeNull();
    refuse = true;
    expect(await jwtSessionStrategy.currentUser(options, request({ [COOKIE]: cookie }))).toBeNull();
  });

  it("with an adapter, currentUser is the stored user (a deleted user is nobody)", async () => {
    const memory = memoryAdapter();
    memory.users.set("u-ada", { id: "u-ada", email: "stored@example.com", emailVerified: null, name: "Stored" });
    const { config } = jwtSetup({ adapter: memory.adapter, session: { strategy: "jwt" } });
    const { options, request } = direct(config);
    const cookie = await encode({ token: { sub: "u-ada", name: "ada" }, secret, salt: COOKIE });
    expect(await jwtSessionStrategy.currentUser(options, request({ [COOKIE]: cookie }))).toMatchObject({ email: "stored@example.com" });
    memory.users.delete("u-ada");
    expect(await jwtSessionStrategy.currentUser(options, request({ [COOKIE]: cookie }))).toBeNull();
  });

  it("credentials sign-in with JWT sessions signs in authorize()'s user as it is", async () => {
    const { options } = direct(jwtSetup().config);
    const user = { id: "x", name: "X" };
    expect(await jwtSessionStrategy.credentialsUser(options, user)).toBe(user);
  });

  it("with the built-in decode, a session check fills the decoded-token cache of the instance", async () => {
    const { config, client } = jwtSetup();
    await signIn(client);
    const state = resolveAuth(config).options?.instanceState;
    const before = state?.tokenCache?.size ?? 0;
    await getSession(client);
    expect(state?.tokenCache?.size).toBe(before + 1);
    await getSession(client);
    expect(state?.tokenCache?.size).toBe(before + 1);
  });

  it("a custom decode is not called without a session cookie", async () => {
    let calls = 0;
    const { client } = jwtSetup({
      jwt: {
        decode: () => {
          calls++;
          return null;
        },
      },
    });
    await getSession(client);
    expect(calls).toBe(0);
  });

  it("moving a due legacy session encrypts the token once", async () => {
    let encodes = 0;
    const config: AuthConfig = {
      secret,
      trustHost: true,
      acceptAuthjsSessions: true,
      providers: [credentials()],
      jwt: {
        encode: ({ token }) => {
          encodes++;
          return JSON.stringify(token);
        },
        decode: ({ token }) => (token ? (JSON.parse(token) as JWT) : null),
      },
    };
    const client = authClient(config, "https://app.example");
    const response = await client.send("/auth/session", {
      headers: { cookie: `__Secure-${COOKIE}=${encodeURIComponent(JSON.stringify({ sub: "u" }))}` },
    });
    expect(setCookie(response, `__Host-${COOKIE}`)?.value).toBe(JSON.stringify({ sub: "u" }));
    expect(encodes).toBe(1);
  });
});

describe("database strategy: called directly", () => {
  it("currentUser is the session's user; an expired session is nobody (and deleted); no cookie is nobody", async () => {
    const { config, sessions, calls } = dbSetup();
    sessions.set("live", { sessionToken: "live", userId: "u1", expires: new Date(NOW + 1000) });
    sessions.set("old", { sessionToken: "old", userId: "u1", expires: new Date(NOW - 1) });
    const { options, request } = direct(config);
    expect(await databaseSessionStrategy.currentUser(options, request({ [COOKIE]: "live" }))).toMatchObject({ id: "u1" });
    expect(await databaseSessionStrategy.currentUser(options, request({ [COOKIE]: "old" }))).toBeNull();
    expect(sessions.has("old")).toBe(false);
    calls.length = 0;
    expect(await databaseSessionStrategy.currentUser(options, request())).toBeNull();
    expect(calls).toEqual([]);
  });

  it("credentials sign-in: an unknown user without an email is UnknownCredentialsUser", async () => {
    const { options } = direct(dbSetup().config);
    await expect(databaseSessionStrategy.credentialsUser(options, { id: "nobody" })).rejects.toMatchObject({
      name: "UnknownCredentialsUser",
    });
    expect(await databaseSessionStrategy.credentialsUser(options, { id: "nobody", email: "ADA@EXAMPLE.COM" })).toMatchObject({ id: "u1" });
  });

  it("a user without an id cannot start a session", async () => {
    const { config, sessions } = dbSetup();
    const { options, request } = direct(config);
    await expect(
      databaseSessionStrategy.start(options, request(), { user: { name: "no id" }, account: null, isNewUser: false }),
    ).rejects.toThrow("Cannot start a database session for a user without an id.");
    expect(sessions.size).toBe(0);
  });

  it("without session methods in the adapter, the strategy says what is missing", async () => {
    const { config } = dbSetup();
    const { options, request } = direct(config);
    const bare = { ...options, capabilities: {} } as InternalOptions;
    await expect(databaseSessionStrategy.start(bare, request(), { user: { id: "u1" }, account: null, isNewUser: false })).rejects.toThrow(
      "Database sessions need an adapter with session methods.",
    );
  });
});

describe("Auth.js session cookies (acceptAuthjsSessions)", () => {
  const AUTHJS = "authjs.session-token";

  it("JWT: with acceptAuthjsSessions an Auth.js session is read and moved to authlib's name; without it, it is ignored", async () => {
    const token = await encode({ token: { sub: "u-ada", name: "ada" }, secret, salt: AUTHJS });
    const accepting = jwtSetup({ acceptAuthjsSessions: true });
    const read = await getSession(accepting.client, { cookie: `${AUTHJS}=${token}` });
    expect(read.body?.user.name).toBe("ada");
    expect(setCookie(read.response, AUTHJS)?.attributes.maxAge).toBe(0);
    expect(setCookie(read.response)?.value).toBeTruthy();
    const ignoring = jwtSetup();
    const ignored = await getSession(ignoring.client, { cookie: `${AUTHJS}=${token}` });
    expect(ignored.body).toBeNull();
    expect(ignored.response.setCookies).toEqual([]);
  });

  it("JWT: signing in clears an Auth.js session cookie only when Auth.js sessions are accepted", async () => {
    for (const accept of [true, false]) {
      const { client } = jwtSetup({ acceptAuthjsSessions: accept });
      const csrfToken = await client.csrf();
      const response = await client.send("/auth/callback/credentials", {
        form: { csrfToken, username: "ada" },
        headers: { cookie: `${client.jar.header()}; ${AUTHJS}=old` },
      });
      expect(setCookie(response, AUTHJS)?.attributes.maxAge).toBe(accept ? 0 : undefined);
    }
  });

  it("database: with acceptAuthjsSessions an Auth.js session token is looked up; without it, it is ignored", async () => {
    for (const accept of [true, false]) {
      const { client, sessions, calls } = dbSetup({ acceptAuthjsSessions: accept });
      sessions.set("authjs-token", { sessionToken: "authjs-token", userId: "u1", expires: new Date(NOW + DAY * 1000) });
      const { body } = await getSession(client, { cookie: `${AUTHJS}=authjs-token` });
      expect(body?.user.email).toBe(accept ? "ada@example.com" : undefined);
      expect(calls.filter(([m]) => m === "getSessionAndUser")).toHaveLength(accept ? 1 : 0);
    }
  });

  it("database: signing in clears an Auth.js session cookie only when Auth.js sessions are accepted", async () => {
    for (const accept of [true, false]) {
      const { client } = dbSetup({ acceptAuthjsSessions: accept });
      const csrfToken = await client.csrf();
      const response = await client.send("/auth/callback/credentials", {
        form: { csrfToken, email: "ada@example.com" },
        headers: { cookie: `${client.jar.header()}; ${AUTHJS}=old` },
      });
      expect(setCookie(response, AUTHJS)?.attributes.maxAge).toBe(accept ? 0 : undefined);
    }
  });
});

describe("session edge cases", () => {
  it("database: an empty session cookie is no session, and nothing is written", async () => {
    const { client, calls } = dbSetup();
    const { body, response } = await getSession(client, { cookie: `${COOKIE}=` });
    expect(body).toBeNull();
    expect(response.setCookies).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("copyJson copies empty arrays as empty arrays", () => {
    expect(copyJson([])).toEqual([]);
    expect(copyJson({ a: [], b: { c: [] } })).toEqual({ a: [], b: { c: [] } });
  });
});
