/**
 * Provider misbehaviour that a real OP does not produce: a token endpoint answering 500, HTML or an
 * OAuth error; ID tokens for another audience or issuer; a token response without the ID token; a
 * failing userinfo endpoint; and a Microsoft-style multi-tenant issuer. A tiny node:http server on
 * 127.0.0.1 plays the provider.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InvalidEndpoints, InvalidProvider, OAuthCallbackError } from "../../src/errors.js";
import { clearDiscoveryCache, finishAuthorization, refreshAccessToken, type SignedIn, startAuthorization } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { type FakeServer, startFakeServer } from "./fake-server.js";
import { contextFor, cookieRecord, endpointsProvider } from "./support.js";

let fake: FakeServer;
let origin: string;
let routes: FakeServer["routes"];

beforeAll(async () => {
  fake = await startFakeServer();
  ({ origin, routes } = fake);
});
afterAll(() => fake.close());
afterEach(() => {
  for (const key of Object.keys(routes)) delete routes[key];
  clearDiscoveryCache();
});

function discoveryDocument(issuer: string, prefix = "") {
  return {
    issuer,
    authorization_endpoint: `${origin}${prefix}/authorize`,
    token_endpoint: `${origin}${prefix}/token`,
    userinfo_endpoint: `${origin}${prefix}/userinfo`,
    response_types_supported: ["code"],
    id_token_signing_alg_values_supported: ["RS256"],
  };
}

function idToken(claims: Record<string, unknown>): Promise<string> {
  return fake.signIdToken(claims);
}

function oauthProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return endpointsProvider(origin, "fake", overrides);
}

function oidcProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "fake",
    name: "Fake",
    type: "oidc",
    issuer: origin,
    clientId: "client",
    clientSecret: "secret",
    checks: ["pkce", "nonce"],
    ...overrides,
  };
}

/**
 * Runs a sign-in whose callback carries `code=the-code` (and the flow's `state`, now checked by
 * default); the provider's answers come from `routes`.
 */
async function callbackWith(provider: OAuthConfig): Promise<SignedIn> {
  const start = await startAuthorization(contextFor(provider), {});
  const url = new URL(start.url);
  const nonce = url.searchParams.get("nonce");
  if (nonce) currentNonce = nonce;
  const params = new URLSearchParams({ code: "the-code" });
  const state = url.searchParams.get("state");
  if (state) params.set("state", state);
  return (await finishAuthorization(contextFor(provider, { requestCookies: cookieRecord(start.cookies) }), params)) as SignedIn;
}
let currentNonce = "";

describe("token endpoint failures", () => {
  it.each([
    ["500 with an HTML page", { status: 500, body: "<html><body>Internal Server Error</body></html>" }],
    ["200 with an HTML page", { status: 200, body: "<html><body>Sign in</body></html>" }],
    ["200 with JSON lacking access_token", { status: 200, body: { token_type: "bearer" } }],
    ["502 with JSON that is not an OAuth error", { status: 502, body: { message: "bad gateway" } }],
  ])("%s is an OAuthCallbackError", async (_, answer) => {
    routes["POST /token"] = () => answer;
    const error = await callbackWith(oauthProvider()).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause.providerId).toBe("fake");
    expect(error.cause.err).toBeInstanceOf(Error);
  });

  it("an OAuth error body carries error and error_description", async () => {
    routes["POST /token"] = () => ({ status: 400, body: { error: "invalid_grant", error_description: "code expired" } });
    const error = await callbackWith(oauthProvider()).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause).toMatchObject({ error: "invalid_grant", error_description: "code expired", status: 400 });
  });

  it("sends the code, the redirect URI, the PKCE verifier and Basic client authentication", async () => {
    let seen: { body: URLSearchParams; authorization?: string } | undefined;
    routes["POST /token"] = ({ body, headers }) => {
      seen = { body, authorization: headers.authorization };
      return { body: { access_token: "at-1", token_type: "Bearer", expires_in: "120" } };
    };
    routes["GET /userinfo"] = () => ({ body: { id: 42, login: "octo" } });
    const result = await callbackWith(oauthProvider({ profile: (p) => ({ id: String(p.id), name: String(p.login) }) }));
    expect(seen?.body.get("grant_type")).toBe("authorization_code");
    expect(seen?.body.get("code")).toBe("the-code");
    expect(seen?.body.get("redirect_uri")).toBe("http://localhost:3000/auth/callback/fake");
    expect(seen?.body.get("code_verifier")).toMatch(/^[\w-]{43}$/);
    expect(seen?.authorization).toBe(`Basic ${Buffer.from("client:secret").toString("base64")}`);
    expect(result.user).toEqual({ id: "42", name: "octo" });
    expect(result.account).toMatchObject({ access_token: "at-1", token_type: "bearer", expires_in: 120, providerAccountId: "42" });
  });

  it("adds token.params to the token request, without letting them replace the grant's own parameters", async () => {
    let seen: URLSearchParams | undefined;
    routes["POST /token"] = ({ body }) => {
      seen = body;
      return { body: { access_token: "at", token_type: "bearer" } };
    };
    routes["GET /userinfo"] = () => ({ body: { id: "1" } });
    await callbackWith(
      oauthProvider({ token: { url: `${origin}/token`, params: { audience: "api", code: "attacker", grant_type: "password" } } }),
    );
    expect(seen?.get("audience")).toBe("api");
    expect(seen?.get("code")).toBe("the-code");
    expect(seen?.get("grant_type")).toBe("authorization_code");
  });

  it("does not send a code_verifier when PKCE is off", async () => {
    let verifier: string | null = "unset";
    routes["POST /token"] = ({ body }) => {
      verifier = body.get("code_verifier");
      return { body: { access_token: "at", token_type: "bearer" } };
    };
    routes["GET /userinfo"] = () => ({ body: { id: "1" } });
    const provider = oauthProvider({ checks: ["state"] });
    const start = await startAuthorization(contextFor(provider), {});
    const state = new URL(start.url).searchParams.get("state") as string;
    await finishAuthorization(
      contextFor(provider, { requestCookies: cookieRecord(start.cookies) }),
      new URLSearchParams({ code: "c", state }),
    );
    expect(verifier).toBeNull();
  });
});

describe("userinfo failures", () => {
  it.each([
    ["401", { status: 401, body: { message: "Bad credentials" } }],
    ["HTML", { status: 200, body: "<html></html>" }],
    ["a JSON array", { status: 200, body: [1, 2] }],
  ])("a userinfo answer of %s is an OAuthCallbackError", async (_, answer) => {
    routes["POST /token"] = () => ({ body: { access_token: "at-secret-value", token_type: "bearer" } });
    routes["GET /userinfo"] = () => answer;
    const error = await callbackWith(oauthProvider()).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(inspect(error, { depth: 10 })).not.toContain("at-secret-value");
  });

  it("an oauth provider without a userinfo endpoint is InvalidEndpoints", async () => {
    routes["POST /token"] = () => ({ body: { access_token: "at", token_type: "bearer" } });
    const error = await callbackWith(oauthProvider({ userinfo: undefined })).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidEndpoints);
  });
});

describe("ID token validation", () => {
  function serveDiscovery() {
    routes["GET /.well-known/openid-configuration"] = () => ({ body: discoveryDocument(origin) });
  }

  it("a valid ID token signs in", async () => {
    serveDiscovery();
    routes["POST /token"] = async () => ({
      body: {
        access_token: "at",
        token_type: "bearer",
        id_token: await idToken({ iss: origin, aud: "client", sub: "u1", nonce: currentNonce, email: "u1@example.com" }),
      },
    });
    const result = await callbackWith(oidcProvider());
    expect(result.user).toEqual({ id: "u1", email: "u1@example.com" });
  });

  it.each([
    ["another audience", { aud: "someone-else" }, /aud/],
    ["another issuer", { iss: "https://attacker.example" }, /iss/],
    ["another nonce", { nonce: "not-the-nonce" }, /nonce/],
    ["an expired token", { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }, /exp|timestamp/],
    ["no subject", { sub: undefined }, /sub/],
  ])("an ID token for %s is an OAuthCallbackError", async (_, change, message) => {
    serveDiscovery();
    routes["POST /token"] = async () => ({
      body: {
        access_token: "at",
        token_type: "bearer",
        id_token: await idToken({ iss: origin, aud: "client", sub: "u1", nonce: currentNonce, ...change }),
      },
    });
    const error = await callbackWith(oidcProvider()).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause.err.message).toMatch(message);
  });

  it("an oidc token response without an ID token is rejected, and the error does not carry the access token", async () => {
    serveDiscovery();
    routes["POST /token"] = () => ({
      body: { access_token: "very-secret-access-token", refresh_token: "very-secret-refresh-token", token_type: "bearer" },
    });
    const error = await callbackWith(oidcProvider()).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    const text = inspect(error, { depth: 12 });
    expect(text).toContain("id_token");
    expect(text).not.toContain("very-secret-access-token");
    expect(text).not.toContain("very-secret-refresh-token");
  });

  it("an oidc provider needs an ID token even when it checks no nonce", async () => {
    serveDiscovery();
    routes["POST /token"] = () => ({ body: { access_token: "at", token_type: "bearer" } });
    routes["GET /userinfo"] = () => ({ body: { sub: "u1" } });
    const error = await callbackWith(oidcProvider({ checks: ["pkce"] })).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(inspect(error, { depth: 12 })).toContain("id_token");
  });

  it("discovers once per issuer and reuses the result", async () => {
    let discoveries = 0;
    routes["GET /.well-known/openid-configuration"] = () => {
      discoveries += 1;
      return { body: discoveryDocument(origin) };
    };
    routes["POST /token"] = async () => ({
      body: {
        access_token: "at",
        token_type: "bearer",
        id_token: await idToken({ iss: origin, aud: "client", sub: "u1", nonce: currentNonce }),
      },
    });
    await startAuthorization(contextFor(oidcProvider()), {});
    await callbackWith(oidcProvider());
    await callbackWith(oidcProvider({ id: "fake-2" }));
    expect(discoveries).toBe(1);
  });

  it("a failed discovery is not cached", async () => {
    let discoveries = 0;
    routes["GET /.well-known/openid-configuration"] = () => {
      discoveries += 1;
      return discoveries === 1 ? { status: 503, body: "busy" } : { body: discoveryDocument(origin) };
    };
    await expect(startAuthorization(contextFor(oidcProvider()), {})).rejects.toThrow();
    await expect(startAuthorization(contextFor(oidcProvider()), {})).resolves.toMatchObject({
      url: expect.stringContaining(`${origin}/authorize?`),
    });
    expect(discoveries).toBe(2);
  });

  it("a discovery document with plain http endpoints on a public host is refused at the token request", async () => {
    routes["GET /.well-known/openid-configuration"] = () => ({
      body: { ...discoveryDocument(origin), token_endpoint: "http://idp.example.com/token" },
    });
    const error = await callbackWith(oidcProvider()).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause.err.message).toMatch(/https/i);
  });

  it("an unreachable issuer fails the start of the sign-in", async () => {
    routes["GET /.well-known/openid-configuration"] = () => ({ status: 500, body: "down" });
    await expect(startAuthorization(contextFor(oidcProvider()), {})).rejects.toThrow();
  });

  it("a discovery document for another issuer is rejected", async () => {
    routes["GET /.well-known/openid-configuration"] = () => ({ body: discoveryDocument("https://attacker.example") });
    await expect(startAuthorization(contextFor(oidcProvider()), {})).rejects.toThrow(/issuer/);
  });
});

describe("multi-tenant issuer (Microsoft Entra ID common endpoint)", () => {
  const TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";

  function serveTenants() {
    routes["GET /common/v2.0/.well-known/openid-configuration"] = () => ({
      body: discoveryDocument(`${origin}/{tenantid}/v2.0`, "/common"),
    });
    routes[`GET /${TENANT}/v2.0/.well-known/openid-configuration`] = () => ({
      body: discoveryDocument(`${origin}/${TENANT}/v2.0`, `/${TENANT}`),
    });
  }

  it("validates the ID token against the issuer of the user's tenant", async () => {
    serveTenants();
    routes["POST /common/token"] = async () => ({
      body: {
        access_token: "at",
        token_type: "Bearer",
        id_token: await idToken({
          iss: `${origin}/${TENANT}/v2.0`,
          tid: TENANT,
          aud: "client",
          sub: "entra-user",
          nonce: currentNonce,
          name: "Entra User",
        }),
      },
    });
    const provider = oidcProvider({ id: "microsoft-entra-id", issuer: `${origin}/common/v2.0` });
    const start = await startAuthorization(contextFor(provider), {});
    expect(new URL(start.url).pathname).toBe("/common/authorize");
    const result = await callbackWith(provider);
    expect(result.user).toEqual({ id: "entra-user", name: "Entra User" });
  });

  it("rejects an ID token whose issuer is not its tenant's", async () => {
    serveTenants();
    routes["POST /common/token"] = async () => ({
      body: {
        access_token: "at",
        token_type: "Bearer",
        id_token: await idToken({ iss: "https://attacker.example/v2.0", tid: TENANT, aud: "client", sub: "x", nonce: currentNonce }),
      },
    });
    const error = await callbackWith(oidcProvider({ issuer: `${origin}/common/v2.0` })).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
  });

  it("does not accept a template issuer for an issuer that is not the template's form", async () => {
    routes["GET /.well-known/openid-configuration"] = () => ({ body: discoveryDocument(`${origin}/{tenantid}/v2.0`) });
    await expect(startAuthorization(contextFor(oidcProvider()), {})).rejects.toThrow(/issuer/);
  });
});

describe("configuration errors", () => {
  it("an oidc provider without issuer is InvalidEndpoints", async () => {
    await expect(startAuthorization(contextFor(oidcProvider({ issuer: undefined })), {})).rejects.toBeInstanceOf(InvalidEndpoints);
  });

  it("an oauth provider without endpoints or issuer is InvalidEndpoints", async () => {
    const provider = oauthProvider({ authorization: undefined, token: undefined });
    await expect(startAuthorization(contextFor(provider), {})).rejects.toBeInstanceOf(InvalidEndpoints);
  });

  it("a provider without clientId is InvalidProvider naming the env variable", async () => {
    const error = await startAuthorization(contextFor(oauthProvider({ id: "my-idp", clientId: undefined })), {}).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidProvider);
    expect(error.message).toContain("AUTH_MY_IDP_ID");
  });

  it("client_secret_basic without clientSecret is InvalidProvider", async () => {
    await expect(refreshAccessToken(oauthProvider({ clientSecret: undefined }), "rt")).rejects.toBeInstanceOf(InvalidProvider);
  });

  it("private_key_jwt without key is InvalidProvider", async () => {
    const provider = oauthProvider({ client: { token_endpoint_auth_method: "private_key_jwt" } });
    await expect(refreshAccessToken(provider, "rt")).rejects.toBeInstanceOf(InvalidProvider);
  });

  it("a malformed redirectProxyUrl is InvalidEndpoints", async () => {
    await expect(startAuthorization(contextFor(oauthProvider(), { redirectProxyUrl: "not a url" }), {})).rejects.toBeInstanceOf(
      InvalidEndpoints,
    );
  });

  it("plain http to a host that is not loopback is refused", async () => {
    const provider = oauthProvider({ token: "http://token.example.com/token" });
    const error = await refreshAccessToken(provider, "rt").catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause.err.message).toMatch(/https/i);
  });
});

describe("refresh", () => {
  it("keeps the old refresh token when none is returned, and maps an OAuth error", async () => {
    routes["POST /token"] = ({ body }) =>
      body.get("refresh_token") === "good"
        ? { body: { access_token: "new", token_type: "bearer", expires_in: 60 } }
        : { status: 400, body: { error: "invalid_grant" } };
    const tokens = await refreshAccessToken(oauthProvider(), "good");
    expect(tokens).toMatchObject({ access_token: "new", refresh_token: "good", token_type: "bearer" });
    const error = await refreshAccessToken(oauthProvider(), "bad").catch((e) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(error.cause.error).toBe("invalid_grant");
  });
});
