/**
 * finishAuthorization (oauth/callback.ts) against the scripted provider of fake-server.ts: what a
 * successful callback hands back (cleared check cookies, link intent, the operator's debug line), the
 * redirect proxy's forwarding, and the message of a failed profile load.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OAuthCallbackError } from "../../src/errors.js";
import type { OAuthContext } from "../../src/oauth/index.js";
import { clearDiscoveryCache, finishAuthorization, type ProxyRedirect, type SignedIn, startAuthorization } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { type FakeServer, startFakeServer } from "./fake-server.js";
import { APP_ORIGIN, contextFor, cookieRecord, endpointsProvider, recordingLogger } from "./support.js";

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

function provider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return endpointsProvider(fake.origin, "fake", { checks: ["pkce", "state"], ...overrides });
}

function serveProfile(profile: Record<string, unknown> = { id: "u-1", name: "Ada" }) {
  fake.routes["POST /token"] = () => ({ body: { access_token: "at", token_type: "bearer" } });
  fake.routes["GET /userinfo"] = () => ({ body: profile });
}

/** Starts a flow in `startCtx` and finishes it with `code=the-code` and the flow's state in a context made by `finishCtx`. */
async function run(p: OAuthConfig, options: { link?: boolean; finish?: Partial<OAuthContext> } = {}) {
  const start = await startAuthorization(contextFor(p, { ...(options.link ? { link: true } : {}) }), {});
  const params = new URLSearchParams({ code: "the-code", state: new URL(start.url).searchParams.get("state") ?? "" });
  const logger = recordingLogger();
  const result = await finishAuthorization(
    contextFor(p, { requestCookies: cookieRecord(start.cookies), logger, ...options.finish }),
    params,
  );
  return { start, result: result as SignedIn, logger };
}

describe("a successful callback", () => {
  it("clears every check cookie it used and logs the sign-in with the provider and its checks", async () => {
    serveProfile();
    const { result, logger } = await run(provider());
    expect(result.kind).toBe("signed-in");
    expect(result.user).toMatchObject({ id: "u-1", name: "Ada" });
    expect(result.account).toMatchObject({ provider: "fake", providerAccountId: "u-1", type: "oauth", access_token: "at" });
    expect(result.profile).toEqual({ id: "u-1", name: "Ada" });
    expect(result.cookies.map((c) => [c.name, c.value, c.options.maxAge])).toEqual([
      ["authlib.pkce.code_verifier", "", 0],
      ["authlib.state", "", 0],
    ]);
    for (const cookie of result.cookies) expect(cookie.options.sameSite).toBe("lax");
    expect(logger.lines).toContain('debug oauth: signed in {"provider":"fake","checks":["pkce","state"]}');
  });

  it("a form_post provider's check cookies are cleared as SameSite=None; Secure (they were set that way)", async () => {
    serveProfile();
    const { result } = await run(provider({ authorization: { url: `${fake.origin}/authorize`, params: { response_mode: "form_post" } } }));
    expect(result.cookies).toHaveLength(2);
    for (const cookie of result.cookies) {
      expect(cookie.options).toMatchObject({ sameSite: "none", secure: true, maxAge: 0 });
    }
  });

  it("tells a flow started as a link from a plain sign-in", async () => {
    serveProfile();
    expect((await run(provider())).result.link).toBe(false);
    serveProfile();
    expect((await run(provider(), { link: true })).result.link).toBe(true);
  });

  it("requires no ID token from a plain OAuth 2 provider, and sends the code to the token endpoint", async () => {
    serveProfile();
    const { result } = await run(provider());
    expect(result.kind).toBe("signed-in");
    const token = fake.requests.find((r) => r.url.pathname === "/token");
    expect(token?.body.get("code")).toBe("the-code");
    expect(token?.body.get("redirect_uri")).toBe(`${APP_ORIGIN}/auth/callback/fake`);
  });
});

describe("failures", () => {
  it("a userinfo endpoint refusing the token is an OAuthCallbackError whose message names the provider", async () => {
    fake.routes["POST /token"] = () => ({ body: { access_token: "at", token_type: "bearer" } });
    fake.routes["GET /userinfo"] = () => ({
      status: 401,
      body: { error: "invalid_token" },
      headers: { "www-authenticate": 'Bearer error="invalid_token"' },
    });
    const error = await run(provider()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect((error as Error).message).toBe('Loading the profile from provider "fake" failed.');
    expect((error as OAuthCallbackError).cause).toMatchObject({ providerId: "fake", error: "invalid_token", status: 401 });
  });

  it("a state that does not match is refused before any token request", async () => {
    serveProfile();
    const start = await startAuthorization(contextFor(provider()), {});
    const error = await finishAuthorization(
      contextFor(provider(), { requestCookies: cookieRecord(start.cookies) }),
      new URLSearchParams({ code: "the-code", state: "forged" }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    expect(fake.requests.filter((r) => r.url.pathname === "/token")).toEqual([]);
  });
});

describe("the redirect proxy", () => {
  const PROXY = `${APP_ORIGIN}/auth`;
  const PREVIEW = "https://preview-7.example.com";

  it("forwards a callback whose sealed state names a preview deployment, without exchanging the code, and logs where to", async () => {
    const p = provider();
    const start = await startAuthorization(
      contextFor(p, { requestOrigin: PREVIEW, redirectUri: `${PREVIEW}/auth/callback/fake`, redirectProxyUrl: PROXY }),
      {},
    );
    const params = new URLSearchParams({ code: "the-code", state: new URL(start.url).searchParams.get("state") as string });
    const logger = recordingLogger();
    const forwarded = (await finishAuthorization(
      contextFor(p, { redirectProxyUrl: PROXY, redirectProxyAllowedOrigins: ["https://preview-*.example.com"], logger }),
      params,
    )) as ProxyRedirect;
    expect(forwarded.kind).toBe("proxy-redirect");
    expect(forwarded.url).toBe(`${PREVIEW}/auth/callback/fake?${params}`);
    expect(fake.requests).toEqual([]);
    expect(logger.lines).toEqual([`debug oauth: forwarding callback from the redirect proxy {"provider":"fake","to":"${PREVIEW}"}`]);
  });
});
