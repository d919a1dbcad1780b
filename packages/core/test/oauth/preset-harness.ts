/**
 * The preset flow harness: a fake of one provider's documented endpoints on 127.0.0.1, driven through a
 * complete authorization-code sign-in by `Auth()` (see `preset-flows.test.ts`, which runs every fixture
 * in `preset-fixtures/`).
 *
 * ## Writing a fixture
 *
 * One file per preset, `preset-fixtures/<id>.ts`, whose default export is a {@link PresetFixture}:
 *
 * ```ts
 * import GitHub from "../../../src/providers/github.js";
 * import type { PresetFixture } from "../preset-harness.js";
 *
 * // Shapes: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * export default {
 *   provider: (origin) => GitHub({ authorization: { url: `${origin}/login/oauth/authorize` }, ... }),
 *   authorization: { path: "/login/oauth/authorize", params: { scope: "read:user user:email" }, checks: ["pkce", "state"] },
 *   token: { path: "/login/oauth/access_token", clientAuth: "client_secret_basic", response: ({ accessToken }) => ({ ... }) },
 *   routes: { "GET /user": { body: { id: 1, ... } } },
 *   expected: { user: { id: "1", name: "…", email: "…", image: "…" }, emailTrusted: true },
 * } satisfies PresetFixture;
 * ```
 *
 * - `provider(origin)` builds the preset with its endpoints on the fake, through the preset's documented
 *   options (explicit URLs, `issuer` for OIDC, or the preset's base URL option). The harness adds
 *   `clientId` {@link CLIENT_ID} and `clientSecret` {@link CLIENT_SECRET} unless the fixture sets them.
 * - `authorization`: the path the browser is sent to, the parameters it must carry (exact values), and
 *   which of PKCE (`code_challenge`, S256), `state` and `nonce` must be present (the others must not be).
 *   `client_id`, `redirect_uri` and `response_type=code` are always checked. With
 *   `params.response_mode: "form_post"` the test posts the callback as a form, as the browser would.
 *   `callbackParams` are returned next to `code` and `state`.
 * - `token`: the token endpoint path, how the client must authenticate there (the fake refuses anything
 *   else, as it refuses a wrong code, redirect URI or PKCE verifier), and the documented response,
 *   built around the access token (and, for OIDC, the ID token) the fake issued.
 * - `oidc` (OIDC presets): the issuer path on the fake and the ID token's claims. The fake serves
 *   discovery at `<issuer>/.well-known/openid-configuration` (authorization and token endpoints as
 *   above, `userinfo_endpoint` when `oidc.userinfoPath` is set), a JWKS, and an RS256 ID token signed
 *   with `iss`, `aud`, `nonce`, `iat` and `exp` filled in.
 * - `routes`: the provider's API the preset calls after the token exchange (userinfo and any other),
 *   keyed `"METHOD /path"` (a `{token}` segment stands for the issued access token). Each must receive
 *   the access token (`auth`: a Bearer header by default, or a query / header / form field name), and
 *   each must be called at least once.
 * - `quirks` (providers that depart from OAuth 2, see `provider.requestQuirks` and
 *   `provider.tokenResponseQuirks`): the provider's names for the `client_id` / `client_secret`
 *   parameters (authorization request and token request), a token endpoint taking a GET with the
 *   parameters in the query, the token response's content type, and a fragment the authorization URL
 *   must end with.
 * - `expected.user`: what `profile()` maps (its `id` is checked as the account's `providerAccountId`);
 *   `expected.emailTrusted`: whether the preset vouches for that email (then it reaches the session
 *   and the user row; otherwise neither has it).
 *
 * The fake's answers follow the provider's documented shapes: cite the documentation page in a comment.
 */
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { clearDiscoveryCache } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { User } from "../../src/types/config.js";
import { type FakeRequest, type FakeResponse, type FakeServer, startFakeServer } from "./fake-server.js";

/** The client id every fixture's provider is registered with at the fake. */
export const CLIENT_ID = "preset-client-id";
/** The client secret every fixture's provider is registered with at the fake. */
export const CLIENT_SECRET = "preset-client-secret";

/**
 * How a resource request must carry the access token: a Bearer header, a query parameter, a field of a
 * POSTed form body, another header, or `"path"` for a route whose key has a `{token}` segment
 * (HubSpot's token metadata).
 */
export type TokenPlacement = "bearer" | "path" | { query: string } | { form: string } | { header: string; scheme?: string };

/** One API route of the provider, called with the access token. */
export interface ResourceRoute {
  /** Where the access token must be: `Authorization: Bearer` by default, `"path"` for keys with `{token}`. */
  auth?: TokenPlacement;
  /** The documented response body (or a function of the request, e.g. to answer by its parameters). */
  body: object | ((request: FakeRequest) => object);
  status?: number;
}

/** One preset's fake and expectations (see the module comment). */
export interface PresetFixture {
  /** Test title; default: the provider's id. */
  title?: string;
  /** The preset, with its endpoints on the fake at `origin`. */
  provider: (origin: string) => OAuthConfig;
  authorization: {
    /** Path of the authorization endpoint on the fake. */
    path: string;
    /** Parameters the authorization URL must carry, with these exact values. */
    params?: Record<string, string>;
    /** Which flow checks the request must carry; the others must be absent. */
    checks: Array<"pkce" | "state" | "nonce">;
    /** More parameters the provider returns with the code (Apple posts the user's name as `user`). */
    callbackParams?: Record<string, string>;
  };
  token: {
    /** Path of the token endpoint on the fake. */
    path: string;
    /** How the client must authenticate at the token endpoint. */
    clientAuth: "client_secret_basic" | "client_secret_post" | "none";
    /** The documented token response around the issued tokens. */
    response: (issued: { accessToken: string; idToken?: string }) => Record<string, unknown>;
  };
  /** For OpenID Connect presets. */
  oidc?: {
    /** The issuer's path on the fake (`""` for the origin itself); the issuer is `origin + issuerPath`. */
    issuerPath: string;
    /** Claims of the ID token; `iss`, `aud`, `nonce`, `iat` and `exp` are added. */
    claims: Record<string, unknown>;
    /** Path of the userinfo endpoint named in the discovery document, if any (serve it in `routes`). */
    userinfoPath?: string;
  };
  /** The provider's API the preset calls with the access token, keyed `"METHOD /path"`. */
  routes: Record<string, ResourceRoute>;
  /** How the provider departs from OAuth 2 (default: not at all). */
  quirks?: {
    /** Name of the client id parameter in the authorization and token requests. Default `client_id`. */
    clientIdParam?: string;
    /** Name of the client secret parameter in the token request. Default `client_secret`. */
    clientSecretParam?: string;
    /** `GET`: the token endpoint takes its parameters in the query of a GET. Default `POST` (a form). */
    tokenMethod?: "GET" | "POST";
    /** Content type of the token response. Default `application/json`. */
    tokenContentType?: string;
    /** The fragment the authorization URL must end with (without `#`). */
    authorizationFragment?: string;
  };
  expected: {
    /** The mapped user; `id` is the account's `providerAccountId`. */
    user: User & { id: string };
    /** Whether the preset vouches for `user.email`. */
    emailTrusted: boolean;
  };
}

/**
 * A recorded provider response from `test/oauth/fixtures/<name>.json` (the profile-mapping tests use the
 * same files), so a fixture serves the documented body rather than a hand-shortened one.
 */
export function recorded<T extends object = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as T;
}

/** Claims the fake sets itself (issuer, audience, nonce) or that a recording has stale or bound to another flow. */
const FLOW_BOUND_CLAIMS = ["iss", "aud", "azp", "exp", "iat", "nbf", "auth_time", "nonce", "at_hash", "c_hash"];

/**
 * The claims of a recorded ID token (`test/oauth/fixtures/<name>.json`) without the ones bound to the
 * recording's flow and time, for `oidc.claims`: the fake signs a fresh token with its own.
 */
export function recordedClaims(name: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(recorded(name)).filter(([claim]) => !FLOW_BOUND_CLAIMS.includes(claim)));
}

/** What the fake saw of one sign-in. */
interface Grant {
  code: string;
  redirectUri: string;
  codeChallenge: string | null;
  nonce: string | null;
}

/** A running fake provider for one fixture. */
export interface FakePreset {
  origin: string;
  /** The fixture's provider pointed at the fake, with the test client's credentials. */
  provider: OAuthConfig;
  /** Problems the fake refused requests for (wrong client auth, code, token…); empty when all went right. */
  refusals: string[];
  /** Requests received, as `"METHOD /path"`. */
  calls(): string[];
  /** The fixture's route keys as served (`{token}` replaced by the issued access token). */
  routeKeys: string[];
  /**
   * Checks the authorization URL against the fixture and "approves" it: returns the callback URL (path
   * and query) with a fresh code and the request's `state`.
   */
  approve(authorizationUrl: string, appOrigin: string): string;
  close(): Promise<void>;
}

const ACCESS_TOKEN_PREFIX = "fake-access-token-";

function base64url(bytes: ArrayBuffer): string {
  return Buffer.from(bytes).toString("base64url");
}

async function s256(verifier: string): Promise<string> {
  return base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
}

function json(status: number, body: object): FakeResponse {
  return { status, body };
}

/** The access token of a resource request, read where the fixture says the provider expects it. */
function presentedToken(request: FakeRequest, placement: Exclude<TokenPlacement, "path">): string | undefined {
  if (placement === "bearer") {
    const header = request.headers.authorization;
    return header?.match(/^Bearer (.+)$/i)?.[1];
  }
  if ("query" in placement) return request.url.searchParams.get(placement.query) ?? undefined;
  if ("form" in placement) return request.body.get(placement.form) ?? undefined;
  const value = request.headers[placement.header.toLowerCase()];
  if (typeof value !== "string") return undefined;
  if (!placement.scheme) return value;
  return value.startsWith(`${placement.scheme} `) ? value.slice(placement.scheme.length + 1) : undefined;
}

/** Checks client authentication at the token endpoint as the fixture requires; a refusal reason or undefined. */
function clientAuthProblem(
  request: FakeRequest,
  method: PresetFixture["token"]["clientAuth"],
  provider: OAuthConfig,
  names: { clientId: string; clientSecret: string },
): string | undefined {
  const basic = request.headers.authorization?.match(/^Basic (.+)$/)?.[1];
  if (method === "client_secret_basic") {
    // RFC 6749 §2.3.1: both halves are form-urlencoded before the Basic encoding.
    const [id = "", secret = ""] = Buffer.from(basic ?? "", "base64")
      .toString()
      .split(":");
    const decode = (part: string) => decodeURIComponent(part.replaceAll("+", " "));
    if (!basic || decode(id) !== provider.clientId || decode(secret) !== provider.clientSecret) {
      return "token: missing or wrong HTTP Basic client authentication";
    }
    if (request.body.has(names.clientSecret)) return "token: client_secret sent in the body as well";
    return undefined;
  }
  if (basic) return `token: HTTP Basic sent, but the provider expects ${method}`;
  if (request.body.get(names.clientId) !== provider.clientId) return `token: wrong or missing ${names.clientId} in the body`;
  if (method === "client_secret_post" && request.body.get(names.clientSecret) !== provider.clientSecret) {
    return `token: wrong or missing ${names.clientSecret} in the body`;
  }
  if (method === "none" && request.body.has(names.clientSecret)) return "token: a public client sent a client_secret";
  return undefined;
}

/** Starts the fake of `fixture`'s provider and builds the provider pointed at it. */
export async function startFakePreset(fixture: PresetFixture): Promise<FakePreset> {
  clearDiscoveryCache();
  const fake: FakeServer = await startFakeServer();
  const { origin } = fake;
  const provider: OAuthConfig = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...fixture.provider(origin) };
  const refusals: string[] = [];
  const grants = new Map<string, Grant>();
  const accessToken = `${ACCESS_TOKEN_PREFIX}${crypto.randomUUID()}`;
  const refuse = (reason: string, status = 400): FakeResponse => {
    refusals.push(reason);
    return json(status, { error: status === 401 ? "invalid_token" : "invalid_request", error_description: reason });
  };

  const issuer = fixture.oidc ? `${origin}${fixture.oidc.issuerPath}` : undefined;
  if (fixture.oidc && issuer) {
    // An issuer with a trailing slash (Roblox: `https://apis.roblox.com/oauth/`) has its discovery document at `…/oauth/.well-known/…`.
    const issuerRoot = fixture.oidc.issuerPath.replace(/\/$/, "");
    const jwksPath = `${issuerRoot}/.well-known/jwks.json`;
    fake.routes[`GET ${issuerRoot}/.well-known/openid-configuration`] = () => ({
      body: {
        issuer,
        authorization_endpoint: `${origin}${fixture.authorization.path}`,
        token_endpoint: `${origin}${fixture.token.path}`,
        ...(fixture.oidc?.userinfoPath ? { userinfo_endpoint: `${origin}${fixture.oidc.userinfoPath}` } : {}),
        jwks_uri: `${origin}${jwksPath}`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
      },
    });
    fake.routes[`GET ${jwksPath}`] = () => ({ body: fake.jwks() });
  }

  const quirks = fixture.quirks ?? {};
  const names = { clientId: quirks.clientIdParam ?? "client_id", clientSecret: quirks.clientSecretParam ?? "client_secret" };
  const tokenMethod = quirks.tokenMethod ?? "POST";
  fake.routes[`${tokenMethod} ${fixture.token.path}`] = async (received) => {
    // A GET token request carries its parameters in the query; read them like a form body.
    const request = tokenMethod === "GET" ? { ...received, body: received.url.searchParams } : received;
    const problem = clientAuthProblem(request, fixture.token.clientAuth, provider, names);
    if (problem) return refuse(problem, 401);
    if (request.body.get("grant_type") !== "authorization_code") return refuse("token: grant_type is not authorization_code");
    const grant = grants.get(request.body.get("code") ?? "");
    if (!grant) return refuse("token: unknown or reused code");
    grants.delete(grant.code);
    if (request.body.get("redirect_uri") !== grant.redirectUri) return refuse("token: redirect_uri differs from the authorization request");
    const verifier = request.body.get("code_verifier");
    if (grant.codeChallenge !== null) {
      if (!verifier || (await s256(verifier)) !== grant.codeChallenge) return refuse("token: code_verifier does not match the challenge");
    } else if (verifier !== null) {
      return refuse("token: code_verifier sent without a code_challenge");
    }
    let idToken: string | undefined;
    if (fixture.oidc) {
      idToken = await fake.signIdToken({
        ...fixture.oidc.claims,
        iss: issuer,
        aud: provider.clientId,
        ...(grant.nonce !== null ? { nonce: grant.nonce } : {}),
      });
    }
    const body = fixture.token.response({ accessToken, idToken });
    return quirks.tokenContentType ? { body: JSON.stringify(body), type: quirks.tokenContentType } : { body };
  };

  const routeKeys: string[] = [];
  for (const [key, route] of Object.entries(fixture.routes)) {
    // A `{token}` segment is the issued access token: only a request carrying it in the path matches.
    const resolvedKey = key.replace("{token}", encodeURIComponent(accessToken));
    routeKeys.push(resolvedKey);
    const placement = route.auth ?? (key.includes("{token}") ? "path" : "bearer");
    fake.routes[resolvedKey] = (request) => {
      if (placement !== "path" && presentedToken(request, placement) !== accessToken) {
        return refuse(`${key}: the access token is missing or wrong`, 401);
      }
      return { status: route.status ?? 200, body: typeof route.body === "function" ? route.body(request) : route.body };
    };
  }

  return {
    origin,
    provider,
    refusals,
    calls: () => fake.requests.map((r) => `${r.method} ${r.url.pathname}`),
    routeKeys,
    approve(authorizationUrl, appOrigin) {
      const url = new URL(authorizationUrl);
      expect(`${url.origin}${url.pathname}`, "authorization endpoint").toBe(`${origin}${fixture.authorization.path}`);
      const q = url.searchParams;
      const redirectUri = `${appOrigin}/auth/callback/${provider.id}`;
      expect(q.get(names.clientId), names.clientId).toBe(provider.clientId);
      if (names.clientId !== "client_id") expect(q.has("client_id"), "client_id under its standard name").toBe(false);
      expect(url.hash, "fragment").toBe(quirks.authorizationFragment ? `#${quirks.authorizationFragment}` : "");
      expect(q.get("redirect_uri"), "redirect_uri").toBe(redirectUri);
      expect(q.get("response_type"), "response_type").toBe("code");
      for (const [name, value] of Object.entries(fixture.authorization.params ?? {})) expect(q.get(name), name).toBe(value);
      const checks = new Set(fixture.authorization.checks);
      expect(q.has("code_challenge"), "PKCE").toBe(checks.has("pkce"));
      if (checks.has("pkce")) {
        expect(q.get("code_challenge_method")).toBe("S256");
        expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
      }
      expect(q.has("state"), "state").toBe(checks.has("state"));
      expect(q.has("nonce"), "nonce").toBe(checks.has("nonce"));

      const code = `code-${crypto.randomUUID()}`;
      grants.set(code, { code, redirectUri, codeChallenge: q.get("code_challenge"), nonce: q.get("nonce") });
      const callback = new URLSearchParams({ code, ...fixture.authorization.callbackParams });
      const state = q.get("state");
      if (state) callback.set("state", state);
      return `/auth/callback/${provider.id}?${callback}`;
    },
    close: () => fake.close(),
  };
}
