/**
 * Complete sign-ins against a real OpenID Provider (oidc-provider on 127.0.0.1): OIDC with discovery,
 * plain OAuth 2 with explicit endpoints, each client authentication method, form_post, refresh.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAuthCallbackError } from "../../src/errors.js";
import { finishAuthorization, refreshAccessToken, type SignedIn, startAuthorization, storedAccount } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { CookieJar, opProvider, privateKeyJwtClient, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { APP_ORIGIN, contextFor, cookieRecord, recordingLogger } from "./support.js";

const callback = (id: string) => `${APP_ORIGIN}/auth/callback/${id}`;
const ids = ["op", "op-oauth", "op-post", "op-jwt", "op-form", "op-public"];

let op: TestOP;
let jwtKey: { key: CryptoKey; kid: string };

beforeAll(async () => {
  const jwt = await privateKeyJwtClient({ client_id: "jwt-client", redirect_uris: [callback("op-jwt")] });
  jwtKey = jwt.privateKey;
  op = await startTestOP({
    clients: [
      { client_id: "app", client_secret: "app-secret", redirect_uris: ids.map(callback) },
      {
        client_id: "post-client",
        client_secret: "post-secret",
        redirect_uris: [callback("op-post")],
        token_endpoint_auth_method: "client_secret_post",
      },
      jwt.client,
      { client_id: "public-client", redirect_uris: [callback("op-public")], token_endpoint_auth_method: "none" },
    ],
  });
});
afterAll(() => op?.close());

function oidc(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return opProvider(op, overrides);
}

/** Start, sign in at the OP, finish: what the engine does across the three requests. */
async function signIn(provider: OAuthConfig, params: Record<string, string> = {}, user = "alice") {
  const logger = recordingLogger();
  const start = await startAuthorization(contextFor(provider, { logger }), params);
  const url = await op.authorize(start.url, { user });
  const result = await finishAuthorization(contextFor(provider, { logger, requestCookies: cookieRecord(start.cookies) }), url.searchParams);
  expect(result.kind).toBe("signed-in");
  return { start, url, result: result as SignedIn, logger };
}

describe("OpenID Connect (discovery, ID token, nonce)", () => {
  it("signs in with the authorization code flow and PKCE, state and nonce", async () => {
    const provider = oidc({ checks: ["pkce", "state", "nonce"] });
    const { start, url, result } = await signIn(provider);

    const authorization = new URL(start.url);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${op.issuer}/auth`);
    const q = authorization.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe("app");
    expect(q.get("redirect_uri")).toBe(callback("op"));
    expect(q.get("scope")).toBe("openid profile email");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")).toBeTruthy();
    expect(q.get("nonce")).toBeTruthy();
    expect(start.cookies.map((c) => c.name)).toEqual(["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"]);
    for (const cookie of start.cookies) {
      expect(cookie.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 900 });
      expect(cookie.value.split(".")).toHaveLength(5); // a JWE, not the raw value
      expect(start.url).not.toContain(cookie.value);
    }
    expect(url.searchParams.get("iss")).toBe(op.issuer);

    expect(result.profile).toMatchObject({ sub: "alice", email: "alice@example.com", name: "Alice Liddell", iss: op.issuer, aud: "app" });
    expect(result.profile.nonce).toBe(q.get("nonce"));
    expect(result.user).toEqual({
      id: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://images.example.com/alice.png",
    });
    const now = Math.floor(Date.now() / 1000);
    expect(result.account).toMatchObject({
      provider: "op",
      type: "oidc",
      providerAccountId: "alice",
      token_type: "bearer",
      expires_in: 3600,
    });
    expect(result.account.expires_at).toBeGreaterThanOrEqual(now + 3598);
    expect(result.account.expires_at).toBeLessThanOrEqual(now + 3600);
    expect(result.account.access_token).toEqual(expect.any(String));
    expect(result.account.id_token?.split(".")).toHaveLength(3);
    expect(result.account.refresh_token).toEqual(expect.any(String));
    expect(result.account.scope).toBe("openid profile email");
    expect(result.cookies).toEqual(
      ["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"].map((name) => ({
        name,
        value: "",
        options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 0 },
      })),
    );
  });

  it("uses PKCE, state and nonce by default for oidc (issue 19), and the default profile mapping", async () => {
    const { start, result } = await signIn(oidc(), {}, "bob");
    const q = new URL(start.url).searchParams;
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.has("state")).toBe(true);
    expect(q.has("nonce")).toBe(true);
    expect(start.cookies.map((c) => c.name)).toEqual(["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"]);
    expect(result.user).toEqual({ id: "bob", name: "Bob Builder", email: "Bob@Example.com", image: "https://images.example.com/bob.png" });
  });

  it("merges authorization.params and the sign-in's authorizationParams, but never lets them replace protected parameters", async () => {
    const provider = oidc({ authorization: { params: { scope: "openid email", prompt: "login", claims: { id_token: { email: null } } } } });
    const start = await startAuthorization(contextFor(provider), {
      login_hint: "bob",
      prompt: "consent",
      redirect_uri: "https://evil.example/steal",
      client_id: "evil",
      code_challenge: "x",
      state: "attacker",
      response_mode: "fragment",
    });
    const q = new URL(start.url).searchParams;
    expect(q.get("scope")).toBe("openid email");
    expect(q.get("login_hint")).toBe("bob");
    expect(q.get("prompt")).toBe("consent");
    expect(JSON.parse(q.get("claims") ?? "")).toEqual({ id_token: { email: null } });
    expect(q.get("redirect_uri")).toBe(callback("op"));
    expect(q.get("client_id")).toBe("app");
    expect(q.get("code_challenge")).not.toBe("x");
    expect(q.get("state")).not.toBe("attacker");
    expect(q.has("response_mode")).toBe(false);
  });

  it("fetches userinfo too when an oidc provider configures it, and merges it over the ID token claims", async () => {
    const provider = oidc({ userinfo: { params: {} }, profile: (p) => ({ id: String(p.sub), name: String(p.preferred_username) }) });
    const { result } = await signIn(provider);
    expect(result.profile).toMatchObject({ sub: "alice", preferred_username: "alice", iss: op.issuer });
    expect(result.user).toEqual({ id: "alice", name: "alice" });
  });

  it("response_mode=form_post: cross-site check cookies, parameters from the posted body", async () => {
    const provider = oidc({ id: "op-form", checks: ["state", "nonce"], authorization: { params: { response_mode: "form_post" } } });
    const { start, result } = await signIn(provider);
    expect(new URL(start.url).searchParams.get("response_mode")).toBe("form_post");
    for (const cookie of start.cookies) expect(cookie.options).toMatchObject({ sameSite: "none", secure: true });
    expect(result.user.id).toBe("alice");
    for (const cookie of result.cookies) expect(cookie.options).toMatchObject({ sameSite: "none", secure: true, maxAge: 0 });
  });

  it("never logs tokens, codes or check values", async () => {
    const { start, url, result, logger } = await signIn(oidc({ checks: ["pkce", "state", "nonce"] }));
    const logged = logger.lines.join("\n");
    expect(logger.lines.length).toBeGreaterThan(0);
    const secrets = [
      result.account.access_token,
      result.account.refresh_token,
      result.account.id_token,
      url.searchParams.get("code"),
      url.searchParams.get("state"),
      new URL(start.url).searchParams.get("nonce"),
      ...start.cookies.map((c) => c.value),
    ];
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });
});

describe("the OP fixture", () => {
  it("keeps the OP session in a shared cookie jar: the second sign-in skips the login page", async () => {
    const jar = new CookieJar();
    const provider = oidc();
    const first = await startAuthorization(contextFor(provider), {});
    await op.authorize(first.url, { jar, user: "bob" });
    const second = await startAuthorization(contextFor(provider), {});
    // `user` is ignored now: the OP still has bob's session.
    const url = await op.authorize(second.url, { jar, user: "alice" });
    const result = (await finishAuthorization(
      contextFor(provider, { requestCookies: cookieRecord(second.cookies) }),
      url.searchParams,
    )) as SignedIn;
    expect(result.user.id).toBe("bob");
  });

  it("denies with a chosen error", async () => {
    const start = await startAuthorization(contextFor(oidc()), {});
    const url = await op.authorize(start.url, { deny: { error: "login_required", error_description: "No session" } });
    expect(url.searchParams.get("error")).toBe("login_required");
    expect(url.searchParams.get("error_description")).toBe("No session");
  });

  it("rejects when the OP shows an error page (unregistered redirect_uri)", async () => {
    const start = await startAuthorization(contextFor(oidc(), { redirectUri: "https://evil.example/cb" }), {});
    await expect(op.authorize(start.url)).rejects.toThrow(/redirect_uri/);
  });
});

describe("plain OAuth 2 (explicit endpoints, userinfo)", () => {
  function plain(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
    return {
      id: "op-oauth",
      name: "Plain OAuth",
      type: "oauth",
      issuer: op.issuer,
      authorization: { url: `${op.issuer}/auth`, params: { scope: "openid email profile" } },
      token: `${op.issuer}/token`,
      userinfo: `${op.issuer}/me`,
      clientId: "app",
      clientSecret: "app-secret",
      profile: (p) => ({ id: String(p.sub), name: String(p.name), email: p.email ?? null }),
      ...overrides,
    };
  }

  it("signs in with the userinfo endpoint as the profile", async () => {
    const { start, result } = await signIn(plain());
    expect(new URL(start.url).searchParams.get("scope")).toBe("openid email profile");
    expect(result.profile).toEqual({
      sub: "alice",
      email: "alice@example.com",
      email_verified: true,
      name: "Alice Liddell",
      given_name: "Alice",
      family_name: "Liddell",
      preferred_username: "alice",
      picture: "https://images.example.com/alice.png",
    });
    expect(result.user).toEqual({ id: "alice", name: "Alice Liddell", email: "alice@example.com" });
    expect(result.account).toMatchObject({ provider: "op-oauth", type: "oauth", providerAccountId: "alice" });
  });

  it("does not add a default scope to an oauth provider", async () => {
    const start = await startAuthorization(contextFor(plain({ authorization: `${op.issuer}/auth` })), {});
    expect(new URL(start.url).searchParams.has("scope")).toBe(false);
  });

  it("uses userinfo.request when given", async () => {
    const provider = plain({
      userinfo: {
        request: async ({ tokens, provider: p }) => {
          expect(p.id).toBe("op-oauth");
          const response = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
          return { ...((await response.json()) as object), source: "hook" };
        },
      },
    });
    const { result } = await signIn(provider);
    expect(result.profile).toMatchObject({ sub: "alice", source: "hook" });
  });

  it("storedAccount() keeps what provider.account() picks, plus the link fields", async () => {
    const { result } = await signIn(plain());
    const stored = storedAccount(plain(), result.account);
    expect(Object.keys(stored).sort()).toEqual(
      ["access_token", "expires_at", "id_token", "provider", "providerAccountId", "refresh_token", "scope", "token_type", "type"].sort(),
    );
    const custom = storedAccount(plain({ account: (t) => ({ refresh_token: t.refresh_token }) }), result.account);
    expect(custom).toEqual({
      refresh_token: result.account.refresh_token,
      provider: "op-oauth",
      type: "oauth",
      providerAccountId: "alice",
    });
  });
});

describe("client authentication", () => {
  it("client_secret_post", async () => {
    const provider = oidc({
      id: "op-post",
      clientId: "post-client",
      clientSecret: "post-secret",
      client: { token_endpoint_auth_method: "client_secret_post" },
    });
    const { result } = await signIn(provider);
    expect(result.account.providerAccountId).toBe("alice");
  });

  it("private_key_jwt", async () => {
    const provider = oidc({
      id: "op-jwt",
      clientId: "jwt-client",
      clientSecret: undefined,
      clientPrivateKey: jwtKey,
      client: { token_endpoint_auth_method: "private_key_jwt" },
    });
    const { result } = await signIn(provider);
    expect(result.account.providerAccountId).toBe("alice");
  });

  it("none (public client, PKCE only)", async () => {
    const provider = oidc({
      id: "op-public",
      clientId: "public-client",
      clientSecret: undefined,
      client: { token_endpoint_auth_method: "none" },
    });
    const { result } = await signIn(provider);
    expect(result.account.providerAccountId).toBe("alice");
  });

  it("a wrong client secret fails the exchange with invalid_client", async () => {
    const provider = oidc({ clientSecret: "wrong" });
    const start = await startAuthorization(contextFor(provider), {});
    const url = await op.authorize(start.url);
    const error = await finishAuthorization(contextFor(provider, { requestCookies: cookieRecord(start.cookies) }), url.searchParams).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ providerId: "op", error: "invalid_client" });
    expect(inspect(error, { depth: 8 })).not.toContain("wrong");
  });
});

describe("refreshAccessToken", () => {
  it("returns new tokens and rotates the refresh token", async () => {
    const provider = oidc();
    const { result } = await signIn(provider);
    const first = result.account.refresh_token as string;

    const refreshed = await refreshAccessToken(provider, first);
    expect(refreshed.access_token).toEqual(expect.any(String));
    expect(refreshed.access_token).not.toBe(result.account.access_token);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(first);
    expect(refreshed.token_type).toBe("bearer");
    expect(refreshed.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));

    const again = await refreshAccessToken(provider, refreshed.refresh_token as string);
    expect(again.refresh_token).not.toBe(refreshed.refresh_token);

    // The rotated-out token is dead: reuse is an invalid_grant.
    const reused = await refreshAccessToken(provider, first).catch((e) => e);
    expect(reused).toBeInstanceOf(OAuthCallbackError);
    expect(reused.cause).toMatchObject({ providerId: "op", error: "invalid_grant" });
    expect(inspect(reused, { depth: 8 })).not.toContain(first);
  });

  it("keeps the refresh token when the provider does not rotate", async () => {
    op.settings.rotateRefreshTokens = false;
    try {
      const provider = oidc();
      const { result } = await signIn(provider);
      const refreshed = await refreshAccessToken(provider, result.account.refresh_token as string);
      expect(refreshed.refresh_token).toBe(result.account.refresh_token);
      expect(refreshed.access_token).not.toBe(result.account.access_token);
    } finally {
      op.settings.rotateRefreshTokens = true;
    }
  });
});
