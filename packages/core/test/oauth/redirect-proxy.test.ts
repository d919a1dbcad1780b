/**
 * The redirect proxy (reference §6.4): a preview deployment signs in through the provider callback of a
 * stable proxy deployment that shares its secret, against a real OpenID Provider.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidCheck, UntrustedRedirectTarget } from "../../src/errors.js";
import { encode } from "../../src/jwt.js";
import { finishAuthorization, type ProxyRedirect, type SignedIn, startAuthorization } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { opProvider, startTestOP, type TestOP } from "../helpers/oidc-provider.js";
import { APP_ORIGIN, contextFor, cookieRecord, SECRET } from "./support.js";

const PROXY = `${APP_ORIGIN}/auth`; // the stable deployment, registered at the provider
const PREVIEW = "https://preview-42.example.com";

let op: TestOP;
beforeAll(async () => {
  op = await startTestOP({ clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${PROXY}/callback/op`] }] });
});
afterAll(() => op?.close());

function provider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return opProvider(op, overrides);
}

const previewContext = (cookies: Record<string, string> = {}) =>
  contextFor(provider(), {
    requestOrigin: PREVIEW,
    redirectUri: `${PREVIEW}/auth/callback/op`,
    redirectProxyUrl: PROXY,
    requestCookies: cookies,
  });
/** The proxy may forward to the preview family and to a loopback development server. */
const ALLOWED = ["https://preview-*.example.com", "http://127.0.0.1:4000"];
const proxyContext = (redirectProxyAllowedOrigins: string[] | undefined = ALLOWED) =>
  contextFor(provider(), { redirectProxyUrl: PROXY, redirectProxyAllowedOrigins });

describe("redirect proxy", () => {
  it("a preview deployment signs in through the proxy", async () => {
    const start = await startAuthorization(previewContext(), {});
    const authorization = new URL(start.url).searchParams;
    expect(authorization.get("redirect_uri")).toBe(`${PROXY}/callback/op`);
    expect(authorization.get("state")?.split(".")).toHaveLength(5); // sealed: it carries the preview's callback URL
    // state is forced on by the proxy (and is a default anyway since issue 19, as is nonce for oidc)
    expect(start.cookies.map((c) => c.name)).toEqual(["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"]);

    const atProxy = await op.authorize(start.url);
    expect(`${atProxy.origin}${atProxy.pathname}`).toBe(`${PROXY}/callback/op`);

    const forwarded = (await finishAuthorization(proxyContext(), atProxy.searchParams)) as ProxyRedirect;
    expect(forwarded.kind).toBe("proxy-redirect");
    const target = new URL(forwarded.url);
    expect(`${target.origin}${target.pathname}`).toBe(`${PREVIEW}/auth/callback/op`);
    expect(target.searchParams.toString()).toBe(atProxy.searchParams.toString());

    const result = (await finishAuthorization(previewContext(cookieRecord(start.cookies)), target.searchParams)) as SignedIn;
    expect(result.kind).toBe("signed-in");
    expect(result.user.id).toBe("alice");
  });

  it("the proxy signs in its own users directly", async () => {
    const start = await startAuthorization(proxyContext(), {});
    expect(new URL(start.url).searchParams.get("redirect_uri")).toBe(`${PROXY}/callback/op`);
    const url = await op.authorize(start.url);
    const result = await finishAuthorization(
      contextFor(provider(), { redirectProxyUrl: PROXY, requestCookies: cookieRecord(start.cookies) }),
      url.searchParams,
    );
    expect(result.kind).toBe("signed-in");
  });

  it("does not forward a state it did not seal (another secret): the regular checks reject it", async () => {
    const sealedElsewhere = await encode({
      token: { origin: "https://evil.example.com/auth/callback/op", random: "r" },
      secret: "not-our-secret-0123456789abcdef0123",
      salt: "encodedState",
    });
    const callback = new URLSearchParams({ code: "x", state: sealedElsewhere, iss: op.issuer });
    await expect(finishAuthorization(proxyContext(), callback)).rejects.toBeInstanceOf(InvalidCheck);
  });

  it.each([
    ["a non-callback path", "https://evil.example.com/steal"],
    ["another provider's callback", `${PREVIEW}/auth/callback/other`],
    ["plain http to a public host", "http://preview-42.example.com/auth/callback/op"],
    ["credentials in the URL", "https://user:pass@preview-42.example.com/auth/callback/op"],
    ["not a URL", "::::"],
  ])("refuses to forward to %s even with a sealed state", async (_, origin) => {
    const state = await encode({ token: { origin, random: "r" }, secret: SECRET, salt: "encodedState" });
    const callback = new URLSearchParams({ code: "x", state, iss: op.issuer });
    await expect(finishAuthorization(proxyContext(), callback)).rejects.toBeInstanceOf(InvalidCheck);
  });

  it("forwards to a loopback http preview (local development)", async () => {
    const state = await encode({
      token: { origin: "http://127.0.0.1:4000/auth/callback/op", random: "r" },
      secret: SECRET,
      salt: "encodedState",
    });
    const result = await finishAuthorization(proxyContext(), new URLSearchParams({ code: "x", state }));
    expect(result).toEqual({
      kind: "proxy-redirect",
      url: `http://127.0.0.1:4000/auth/callback/op?code=x&state=${encodeURIComponent(state)}`,
    });
  });

  it.each([
    ["an origin off the allow-list", "https://attacker.example/auth/callback/op", ALLOWED],
    ["a host that only starts like an allowed one", "https://preview-42.example.com.attacker.example/auth/callback/op", ALLOWED],
    ["a sub-subdomain of an allowed pattern", "https://x.preview-42.example.com/auth/callback/op", ALLOWED],
    ["another loopback port", "http://127.0.0.1:4001/auth/callback/op", ALLOWED],
    ["a preview, when the allow-list is empty", `${PREVIEW}/auth/callback/op`, []],
  ])("refuses to forward a sealed state naming %s (UntrustedRedirectTarget)", async (_, origin, allowList) => {
    const state = await encode({ token: { origin, random: "r" }, secret: SECRET, salt: "encodedState" });
    const callback = new URLSearchParams({ code: "stolen", state, iss: op.issuer });
    await expect(finishAuthorization(proxyContext(allowList), callback)).rejects.toBeInstanceOf(UntrustedRedirectTarget);
  });

  it("form_post flows do not use the proxy", async () => {
    const start = await startAuthorization(
      contextFor(provider({ authorization: { params: { response_mode: "form_post" } } }), {
        requestOrigin: PREVIEW,
        redirectUri: `${PREVIEW}/auth/callback/op`,
        redirectProxyUrl: PROXY,
      }),
      {},
    );
    expect(new URL(start.url).searchParams.get("redirect_uri")).toBe(`${PREVIEW}/auth/callback/op`);
  });
});
