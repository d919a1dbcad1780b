/**
 * The callback route (actions/callback.ts) through Auth(), against the cheap scripted provider of
 * oauth/fake-server.ts (no OpenID Provider, no database): which provider and method take a callback, the
 * form_post bounce, what the `signIn` callback sees, and how failures surface to the browser and the log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuthError } from "../../src/errors.js";
import { clearDiscoveryCache, startAuthorization } from "../../src/oauth/index.js";
import Credentials from "../../src/providers/credentials.js";
import Email from "../../src/providers/email.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { recordFailures } from "../helpers/failure-log.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { type FakeServer, startFakeServer } from "../oauth/fake-server.js";
import { contextFor } from "../oauth/support.js";

const ORIGIN = "http://localhost:3000";
const secret = "callback-route-secret-0123456789abcdef";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer();
});
afterAll(() => fake.close());
afterEach(() => {
  for (const key of Object.keys(fake.routes)) delete fake.routes[key];
  fake.requests.length = 0;
  clearDiscoveryCache();
});

function fakeProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "fake",
    name: "Fake",
    type: "oauth",
    authorization: `${fake.origin}/authorize`,
    token: `${fake.origin}/token`,
    userinfo: `${fake.origin}/userinfo`,
    clientId: "client",
    clientSecret: "secret",
    checks: ["state"],
    ...overrides,
  };
}

/** The provider answers the code exchange and the userinfo request with `profile`. */
function provide(profile: Record<string, unknown>) {
  fake.routes["POST /token"] = () => ({ body: { access_token: "at", token_type: "bearer" } });
  fake.routes["GET /userinfo"] = () => ({ body: profile });
}

function app(overrides: Partial<AuthConfig> = {}) {
  const errors: AuthError[] = [];
  const signIns: Array<Record<string, unknown>> = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    providers: [fakeProvider()],
    // `errors`: every failure logged, at its level (a user's mistake at debug): the flows' named errors.
    debug: true,
    logger: { ...recordFailures(errors), warn: () => {} },
    ...overrides,
    callbacks: {
      signIn: (params) => {
        signIns.push(params as unknown as Record<string, unknown>);
        return true;
      },
      ...overrides.callbacks,
    },
  };
  return { config, errors, signIns, client: () => authClient(config, ORIGIN) };
}

/** Starts a sign-in with `providerId` and returns the `state` the provider would send back. */
async function start(client: ReturnType<typeof authClient>, providerId = "fake"): Promise<string> {
  const response = await client.send(`/auth/signin/${providerId}`, { form: { csrfToken: await client.csrf(), callbackUrl: "/dashboard" } });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location") as string).searchParams.get("state") as string;
}

describe("which provider takes a callback, and how", () => {
  it("an OAuth provider's GET callback signs in and lands on the callback URL", async () => {
    provide({ id: "u-1", name: "Ada", email: "ada@example.com" });
    const a = app();
    const client = a.client();
    const state = await start(client);
    const done = await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect((await client.session())?.user?.name).toBe("Ada");
    expect(a.errors).toEqual([]);
  });

  it("a provider's form_post (POST) is bounced to a GET of the same parameters on the callback URL, without signing in yet", async () => {
    const a = app();
    const client = a.client();
    const response = await client.send("/auth/callback/fake", { form: { code: "the code", state: "s&t", iss: "https://x" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/callback/fake?${new URLSearchParams({ code: "the code", state: "s&t", iss: "https://x" })}`,
    );
    expect(fake.requests.filter((r) => r.url.pathname === "/token")).toEqual([]);
    expect(await client.session()).toBeNull();
  });

  it("an OIDC provider's form_post is bounced too", async () => {
    const a = app({ providers: [fakeProvider({ id: "fake-oidc", type: "oidc", issuer: fake.origin })] });
    const response = await a.client().send("/auth/callback/fake-oidc", { form: { code: "c" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/callback/fake-oidc?code=c`);
  });

  it("an unknown provider is InvalidProvider naming it", async () => {
    const a = app();
    const response = await a.client().send("/auth/callback/nope?code=c");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(a.errors.map((e) => [e.type, e.message])).toEqual([["InvalidProvider", 'Unknown provider "nope".']]);
  });

  it("a callback without a provider in the path is InvalidProvider with an empty name", async () => {
    const a = app();
    const response = await a.client().send("/auth/callback?code=c");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(a.errors.map((e) => [e.type, e.message])).toEqual([["InvalidProvider", 'Unknown provider "".']]);
  });

  it("a credentials provider takes no GET callback (InvalidProvider), only its POSTed form", async () => {
    const a = app({ providers: [Credentials({ credentials: { name: {} }, authorize: (c) => ({ id: "1", name: String(c.name) }) })] });
    const client = a.client();
    const response = await client.send("/auth/callback/credentials?name=ada");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(a.errors.map((e) => [e.type, e.message])).toEqual([
      ["InvalidProvider", 'The provider "credentials" does not accept a GET callback.'],
    ]);
    expect(await client.session()).toBeNull();
  });

  it("an email provider's link (GET, confirm: never) reaches the email sign-in: an unknown token is Verification, not a configuration error", async () => {
    const asked: unknown[] = [];
    const adapter: Adapter = {
      createVerificationToken: async (token) => token,
      useVerificationToken: async (params) => {
        asked.push(params.identifier);
        return null;
      },
      getUserByEmail: async () => null,
      createUser: async (user) => user,
      updateUser: async (user) => user as never,
    };
    const a = app({ adapter, session: { strategy: "jwt" }, providers: [Email({ sendVerificationRequest: () => {}, confirm: "never" })] });
    const response = await a.client().send("/auth/callback/email?email=ada%40example.com&token=unknown");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`);
    expect(a.errors.map((e) => e.type)).toEqual(["Verification"]);
    expect(asked).toEqual(["ada@example.com"]);
  });
});

describe("more providers and methods", () => {
  it("a provider of a type that takes no callback at all is InvalidProvider naming the method", async () => {
    const odd = { id: "saml", name: "SAML", type: "saml" } as unknown as AuthConfig["providers"][number];
    const a = app({ providers: [fakeProvider(), odd] });
    const response = await a.client().send("/auth/callback/saml?SAMLResponse=x");
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(a.errors.map((e) => [e.type, e.message])).toEqual([["InvalidProvider", 'The provider "saml" does not accept a GET callback.']]);
  });

  it("credentials: authorize() returning no user is CredentialsSignin, logged with its reason", async () => {
    const a = app({ providers: [Credentials({ credentials: { name: {} }, authorize: () => null })] });
    const client = a.client();
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken: await client.csrf(), name: "ada" } });
    // The refused form is named (`provider`) so the page shows the error in it; no address was typed.
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=credentials`);
    expect(a.errors.map((e) => [e.type, e.message])).toEqual([["CredentialsSignin", "authorize() returned no user."]]);
    expect(await client.session()).toBeNull();
  });

  it("credentials: a redirect from the signIn callback is followed without a session", async () => {
    const a = app({
      providers: [Credentials({ credentials: { name: {} }, authorize: (c) => ({ id: "1", name: String(c.name) }) })],
      callbacks: { signIn: () => "/waitlist" },
    });
    const client = a.client();
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken: await client.csrf(), name: "ada" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(await client.session()).toBeNull();
  });

  it("on the redirect proxy, a callback sealed for a preview deployment is forwarded there, code unexchanged", async () => {
    const PREVIEW = "https://preview-3.example.com";
    const proxy = `${ORIGIN}/auth`;
    const p = fakeProvider();
    const started = await startAuthorization(
      contextFor(p, { secret, requestOrigin: PREVIEW, redirectUri: `${PREVIEW}/auth/callback/fake`, redirectProxyUrl: proxy }),
      {},
    );
    const params = new URLSearchParams({ code: "c", state: new URL(started.url).searchParams.get("state") as string });
    const a = app({ providers: [p], redirectProxyUrl: proxy, redirectProxyAllowedOrigins: ["https://preview-*.example.com"] });
    const response = await a.client().send(`/auth/callback/fake?${params}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${PREVIEW}/auth/callback/fake?${params}`);
    expect(fake.requests).toEqual([]);
    expect(a.errors).toEqual([]);
  });
});

describe("off the redirect proxy", () => {
  it("an app that is not the proxy never forwards a callback, even one sealed for an allowed preview", async () => {
    const PREVIEW = "https://preview-4.example.com";
    const proxy = `${ORIGIN}/auth`;
    const p = fakeProvider();
    const started = await startAuthorization(
      contextFor(p, { secret, requestOrigin: PREVIEW, redirectUri: `${PREVIEW}/auth/callback/fake`, redirectProxyUrl: proxy }),
      {},
    );
    const params = new URLSearchParams({ code: "c", state: new URL(started.url).searchParams.get("state") as string });
    const a = app({ providers: [p], redirectProxyAllowedOrigins: ["https://preview-*.example.com"] });
    const response = await a.client().send(`/auth/callback/fake?${params}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).not.toContain(PREVIEW);
    expect(a.errors.map((e) => e.type)).toEqual(["InvalidCheck"]);
    expect(fake.requests).toEqual([]);
  });
});

describe("what the signIn callback sees", () => {
  it("a signed-in user signing in again (no link asked for) is not offered as a link target", async () => {
    provide({ id: "u-6", name: "Ada" });
    const a = app();
    const client = a.client();
    for (let i = 0; i < 2; i++) {
      const state = await start(client);
      await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    }
    expect((await client.session())?.user?.name).toBe("Ada");
    expect(a.signIns).toHaveLength(2);
    for (const params of a.signIns) expect(params).not.toHaveProperty("link");
  });

  it("the provider's user with the email only when the provider vouches for it; the raw claims stay in the profile", async () => {
    provide({ id: "u-2", name: "Mallory", email: "Victim@Example.com", email_verified: false });
    const a = app();
    const client = a.client();
    const state = await start(client);
    await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    expect(a.signIns).toHaveLength(1);
    expect(a.signIns[0]).toMatchObject({
      user: { name: "Mallory", email: null, emailVerified: null },
      account: { provider: "fake", providerAccountId: "u-2", type: "oauth" },
      profile: { email: "Victim@Example.com", email_verified: false },
    });
    expect(a.signIns[0]).not.toHaveProperty("link");
    expect((await client.session())?.user?.email ?? null).toBeNull();
  });

  it("a vouched email reaches the signIn callback and the session lower-cased", async () => {
    provide({ id: "u-3", name: "Ada", email: "Ada@Example.com", email_verified: true });
    const a = app();
    const client = a.client();
    const state = await start(client);
    await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    expect(a.signIns[0]).toMatchObject({ user: { email: "ada@example.com", emailVerified: expect.any(Date) } });
    expect((await client.session())?.user?.email).toBe("ada@example.com");
  });

  it("a redirect from the signIn callback is followed, and the check cookies are still cleared", async () => {
    provide({ id: "u-4", name: "Ada" });
    const a = app({ callbacks: { signIn: () => "/waitlist" } });
    const client = a.client();
    const state = await start(client);
    expect(client.jar.get("authlib.state")).toBeDefined();
    const done = await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/waitlist`);
    expect(client.jar.get("authlib.state")).toBeUndefined();
    expect(await client.session()).toBeNull();
  });
});

describe("failures", () => {
  it("a failure that is not an AuthError is wrapped in CallbackRouteError, naming the provider and keeping the cause", async () => {
    provide({ id: "u-5", name: "Ada" });
    const boom = new Error("the database is down");
    const a = app({
      callbacks: {
        jwt: () => {
          throw boom;
        },
      },
    });
    const client = a.client();
    const state = await start(client);
    const done = await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect(a.errors).toHaveLength(1);
    expect(a.errors[0]?.type).toBe("CallbackRouteError");
    expect(a.errors[0]?.message).toBe("The fake callback failed.");
    expect(a.errors[0]?.cause).toEqual({ err: boom, provider: "fake" });
  });

  it("an AuthError is passed on as it is (not wrapped)", async () => {
    fake.routes["POST /token"] = () => ({ status: 400, body: { error: "invalid_grant" } });
    const a = app();
    const client = a.client();
    const state = await start(client);
    const done = await client.send(`/auth/callback/fake?${new URLSearchParams({ code: "c", state })}`);
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(a.errors.map((e) => e.type)).toEqual(["OAuthCallbackError"]);
  });
});

describe("credentials", () => {
  function credentialsApp(overrides: Partial<AuthConfig> = {}) {
    const authorized: Array<Record<string, unknown>> = [];
    const signInEvents: Array<{ isNewUser?: boolean }> = [];
    const a = app({
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: (c) => {
            authorized.push({ ...c });
            return c.password === "right" ? { id: "1", name: String(c.username) } : null;
          },
        }),
      ],
      events: { signIn: (message) => void signInEvents.push(message) },
      ...overrides,
    });
    return { ...a, authorized, signInEvents };
  }

  it("only the form's own fields reach authorize and the signIn callback: csrfToken and callbackUrl stay out", async () => {
    const a = credentialsApp();
    const client = a.client();
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      form: { csrfToken, callbackUrl: "/dashboard", username: "ada", password: "right" },
    });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(a.authorized).toEqual([{ username: "ada", password: "right" }]);
    expect(a.signIns).toHaveLength(1);
    expect(a.signIns[0]?.credentials).toEqual({ username: "ada", password: "right" });
    expect(a.signIns[0]?.account).toEqual({ providerAccountId: "1", type: "credentials", provider: "credentials" });
    expect((await client.session())?.user?.name).toBe("ada");
  });

  it("a credentials sign-in is never a new user (the signIn event says isNewUser: false)", async () => {
    const a = credentialsApp();
    const client = a.client();
    await client.send("/auth/callback/credentials", { form: { csrfToken: await client.csrf(), username: "ada", password: "right" } });
    expect(a.signInEvents).toHaveLength(1);
    expect(a.signInEvents[0]?.isNewUser).toBe(false);
  });

  it("a POST without the CSRF token is MissingCSRF naming the credentials callback, and authorize never runs", async () => {
    const a = credentialsApp();
    const client = a.client();
    await client.csrf();
    const response = await client.send("/auth/callback/credentials", { form: { username: "ada", password: "right" } });
    expect(response.status).toBe(302);
    expect(a.errors.map((e) => [e.type, e.message])).toEqual([
      ["MissingCSRF", "The CSRF token was missing or wrong during the credentials callback action."],
    ]);
    expect(a.authorized).toEqual([]);
    expect(await client.session()).toBeNull();
  });

  it("attempts are limited by default: once an account's free failures are used, the next attempt is refused before authorize", async () => {
    const a = credentialsApp({ rateLimit: { credentials: { freeFailures: 1 } } });
    const client = a.client();
    const csrfToken = await client.csrf();
    await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "wrong" } });
    const refused = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "right" } });
    expect(a.authorized).toHaveLength(1);
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=RateLimited`);
    expect(await client.session()).toBeNull();
  });

  it("a named field sent as a JSON array is CredentialsSignin naming the field; authorize never runs, with or without limits", async () => {
    for (const rateLimit of [undefined, false] as const) {
      const a = credentialsApp(rateLimit === false ? { rateLimit } : {});
      const client = a.client();
      const response = await client.send("/auth/callback/credentials", {
        json: { csrfToken: await client.csrf(), username: ["ada"], password: { value: "right" } },
      });
      expect(response.status).toBe(302);
      expect(a.errors.map((e) => [e.type, e.message])).toEqual([
        ["CredentialsSignin", "The credential field(s) username, password must be text."],
      ]);
      expect(a.authorized).toEqual([]);
      expect(await client.session()).toBeNull();
    }
  });

  it("malformed attempts count against the client: past its failures even a right password is RateLimited", async () => {
    const a = credentialsApp({ rateLimit: { credentials: { clientFailures: 2 } } });
    const client = authClient(a.config, ORIGIN, "203.0.113.7");
    const csrfToken = await client.csrf();
    for (let i = 0; i < 2; i++) {
      await client.send("/auth/callback/credentials", { json: { csrfToken, username: ["ada"], password: "right" } });
    }
    const refused = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "right" } });
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=RateLimited`);
    expect(a.authorized).toEqual([]);
    expect(await client.session()).toBeNull();
  });

  it("a completed sign-in makes the browser a known device (its device cookie beside the session cookie); without limits it gets none", async () => {
    const limited = credentialsApp();
    const client = limited.client();
    await client.send("/auth/callback/credentials", { form: { csrfToken: await client.csrf(), username: "ada", password: "right" } });
    expect(client.jar.get("authlib.device-token")).toMatch(/.+/);
    expect(client.jar.get("authlib.session-token")).toMatch(/.+/);

    const unlimited = credentialsApp({ rateLimit: false });
    const other = unlimited.client();
    await other.send("/auth/callback/credentials", { form: { csrfToken: await other.csrf(), username: "ada", password: "right" } });
    expect(other.jar.get("authlib.device-token")).toBeUndefined();
    expect(other.jar.get("authlib.session-token")).toMatch(/.+/);

    const failed = limited.client();
    await failed.send("/auth/callback/credentials", { form: { csrfToken: await failed.csrf(), username: "ada", password: "wrong" } });
    expect(failed.jar.get("authlib.device-token")).toBeUndefined();
  });

  it("with rateLimit: false every attempt reaches authorize", async () => {
    const a = credentialsApp({ rateLimit: false });
    const client = a.client();
    const csrfToken = await client.csrf();
    for (let i = 0; i < 4; i++) {
      await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "wrong" } });
    }
    await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", password: "right" } });
    expect(a.authorized).toHaveLength(5);
    expect(a.errors.map((e) => e.type)).toEqual(Array(4).fill("CredentialsSignin"));
    expect((await client.session())?.user?.name).toBe("ada");
  });
});

describe("linking: what the signIn callback is told", () => {
  async function signInWith(client: ReturnType<typeof authClient>, providerId: string, form: Record<string, string> = {}) {
    const response = await client.send(`/auth/signin/${providerId}`, {
      form: { csrfToken: await client.csrf(), callbackUrl: "/dashboard", ...form },
    });
    const state = new URL(response.headers.get("location") as string).searchParams.get("state") as string;
    return client.send(`/auth/callback/${providerId}?${new URLSearchParams({ code: "c", state })}`);
  }

  it("an explicit link (link=true) by a signed-in user offers that user as the link target; the user is the provider's", async () => {
    provide({ id: "p-1", name: "Ada" });
    const memory = memoryAdapter();
    const a = app({ adapter: memory.adapter, providers: [fakeProvider(), fakeProvider({ id: "second", name: "Second" })] });
    const client = a.client();
    await signInWith(client, "fake");
    const [ada] = [...memory.users.values()];
    await signInWith(client, "second", { link: "true" });
    expect(a.signIns).toHaveLength(2);
    expect(a.signIns[0]).not.toHaveProperty("link");
    expect(a.signIns[1]?.link).toEqual({ user: expect.objectContaining({ id: ada?.id }) });
    expect(a.signIns[1]?.account).toMatchObject({ provider: "second", providerAccountId: "p-1" });
    expect(memory.users.size).toBe(1);
    expect(a.errors).toEqual([]);
  });

  it("an account already linked is signed in as its user, never offered as a link, even when link=true", async () => {
    provide({ id: "p-2", name: "Ada" });
    const memory = memoryAdapter();
    const a = app({ adapter: memory.adapter });
    const client = a.client();
    await signInWith(client, "fake");
    const [ada] = [...memory.users.values()];
    await signInWith(client, "fake", { link: "true" });
    expect(a.signIns).toHaveLength(2);
    expect(a.signIns[1]).not.toHaveProperty("link");
    expect(a.signIns[1]?.user).toMatchObject({ id: ada?.id });
    expect(memory.users.size).toBe(1);
  });

  it("without an adapter there is nothing to link to: link=true by a signed-in (JWT) user offers no link target", async () => {
    provide({ id: "p-3", name: "Ada" });
    const a = app({ providers: [fakeProvider(), fakeProvider({ id: "second", name: "Second" })] });
    const client = a.client();
    await signInWith(client, "fake");
    expect((await client.session())?.user?.name).toBe("Ada");
    await signInWith(client, "second", { link: "true" });
    expect(a.signIns).toHaveLength(2);
    for (const params of a.signIns) expect(params).not.toHaveProperty("link");
  });
});
