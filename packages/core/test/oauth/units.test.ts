/** Unit tests of the OAuth layer's small pure parts: transport rules, checks, profile defaults, redaction. */
import { describe, expect, it } from "vitest";
import { OAuthCallbackError } from "../../src/errors.js";
import { checkBinding, resolveChecks } from "../../src/oauth/checks.js";
import { endpointParams, endpointSearchParams, endpointUrl } from "../../src/oauth/endpoints.js";
import { callbackError } from "../../src/oauth/failure.js";
import { allowsInsecureRequests, isLoopbackHost } from "../../src/oauth/http.js";
import { defaultAccount, defaultProfile, storedAccount } from "../../src/oauth/index.js";
import { toTokenSet } from "../../src/oauth/profile.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { recordingLogger } from "./support.js";

const base: OAuthConfig = { id: "p", name: "P", type: "oidc", issuer: "https://idp.example", clientId: "c" };

describe("plain http only on loopback", () => {
  it.each(["localhost", "app.localhost", "127.0.0.1", "127.10.0.3", "[::1]"])("%s is loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(["127.0.0.1.evil.example", "localhost.evil.example", "10.0.0.1", "example.com", "0.0.0.0", "[::ffff:7f00:1]"])(
    "%s is not",
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it("allows insecure requests only when every http URL is loopback", () => {
    expect(allowsInsecureRequests(["https://idp.example"])).toBe(false);
    expect(allowsInsecureRequests(["http://127.0.0.1:4000", "http://localhost:4000/token"])).toBe(true);
    expect(allowsInsecureRequests(["http://127.0.0.1:4000", "http://idp.example/token"])).toBe(false);
    expect(allowsInsecureRequests(["http://127.0.0.1:4000", "https://idp.example/jwks", undefined])).toBe(true);
  });
});

describe("checks", () => {
  const s256 = { code_challenge_methods_supported: ["S256"] };

  it("default to PKCE and state (plus nonce for oidc); state is added for a redirect proxy; none is ignored", () => {
    const logger = recordingLogger();
    expect([...resolveChecks(base, false, s256, logger)]).toEqual(["pkce", "state", "nonce"]);
    expect([...resolveChecks({ ...base, type: "oauth" }, false, {}, logger)]).toEqual(["pkce", "state"]);
    expect([...resolveChecks({ ...base, checks: ["pkce"] }, true, s256, logger)]).toEqual(["pkce", "state"]);
    expect([...resolveChecks({ ...base, checks: ["nonce"] }, true, {}, logger)]).toEqual(["nonce", "state"]);
    expect([...resolveChecks({ ...base, checks: ["none"] }, false, {}, logger)]).toEqual([]);
    expect(logger.lines.filter((line) => line.startsWith("warn"))).toEqual([]);
  });

  it("PKCE alone only when the provider lists S256; otherwise state is added, with one warning per provider", () => {
    const logger = recordingLogger();
    const pkceOnly: OAuthConfig = { ...base, id: "pkce-only-unit", checks: ["pkce"] };
    const warned = new Set<string>();
    expect([...resolveChecks(pkceOnly, false, s256, logger, warned)]).toEqual(["pkce"]);
    expect([...resolveChecks(pkceOnly, false, { code_challenge_methods_supported: ["plain"] }, logger, warned)]).toEqual(["pkce", "state"]);
    expect([...resolveChecks(pkceOnly, false, {}, logger, warned)]).toEqual(["pkce", "state"]);
    expect(logger.lines.filter((line) => line.startsWith("warn"))).toEqual(["warn pkce-unverified"]);
    // Another instance (its own set) says it again: the state is the instance's, not the process's.
    resolveChecks(pkceOnly, false, {}, logger, new Set());
    expect(logger.lines.filter((line) => line.startsWith("warn"))).toHaveLength(2);
  });

  it("bind to provider, issuer (or the authorization URL), client and redirect URI", () => {
    expect(checkBinding(base, "https://app/cb")).toEqual({
      provider: "p",
      issuer: "https://idp.example",
      clientId: "c",
      redirectUri: "https://app/cb",
    });
    const oauth2: OAuthConfig = { ...base, type: "oauth", issuer: undefined, authorization: { url: "https://idp.example/authorize" } };
    expect(checkBinding(oauth2, "https://app/cb").issuer).toBe("https://idp.example/authorize");
  });
});

describe("endpoints", () => {
  it("read the URL and params of every endpoint form", () => {
    expect(endpointUrl("https://a/x")).toBe("https://a/x");
    expect(endpointUrl({ url: "https://a/y", params: { a: 1 } })).toBe("https://a/y");
    expect(endpointUrl(undefined)).toBeUndefined();
    expect(endpointParams({ params: { scope: "s" } })).toEqual({ scope: "s" });
    expect(endpointParams("https://a/x")).toEqual({});
    expect(endpointSearchParams({ params: { claims: { id_token: { email: null } }, n: 1, skip: undefined } }).toString()).toBe(
      "claims=%7B%22id_token%22%3A%7B%22email%22%3Anull%7D%7D&n=1",
    );
  });
});

describe("profile and account defaults", () => {
  it("defaultProfile maps OIDC claims and drops what is missing", () => {
    expect(defaultProfile({ sub: "1", name: "N", email: "e@x", picture: "https://p" })).toEqual({
      id: "1",
      name: "N",
      email: "e@x",
      image: "https://p",
    });
    expect(defaultProfile({ id: "7", nickname: "nick" })).toEqual({ id: "7", name: "nick" });
    expect(defaultProfile({ sub: "1", preferred_username: "u" })).toEqual({ id: "1", name: "u" });
  });

  it("defaultAccount keeps the seven stored token fields", () => {
    const tokens = {
      access_token: "a",
      id_token: "i",
      refresh_token: "r",
      expires_at: 1,
      expires_in: 5,
      scope: "s",
      token_type: "bearer",
      session_state: "x",
      extra: 1,
    };
    expect(defaultAccount(tokens)).toEqual({
      access_token: "a",
      id_token: "i",
      refresh_token: "r",
      expires_at: 1,
      scope: "s",
      token_type: "bearer",
      session_state: "x",
    });
  });

  it("storedAccount always keeps the link fields", () => {
    const account = { provider: "p", type: "oidc" as const, providerAccountId: "1", access_token: "a", expires_in: 5 };
    expect(storedAccount({ ...base, account: () => null }, account)).toEqual({ provider: "p", type: "oidc", providerAccountId: "1" });
  });

  it("toTokenSet computes expires_at from expires_in", () => {
    const now = Math.floor(Date.now() / 1000);
    const tokens = toTokenSet({ access_token: "a", token_type: "bearer", expires_in: 3600 });
    expect(tokens.expires_at).toBeGreaterThanOrEqual(now + 3600);
    expect(tokens.expires_at).toBeLessThanOrEqual(now + 3601);
    expect(toTokenSet({ access_token: "a", token_type: "bearer" }).expires_at).toBeUndefined();
  });
});

describe("callbackError", () => {
  it("redacts tokens and codes in the underlying error's cause", () => {
    const err = new Error("bad response", {
      cause: { body: { access_token: "AT", nested: [{ refresh_token: "RT" }], ok: 1 }, parameters: new URLSearchParams("code=C&state=S") },
    });
    const error = callbackError("p", err);
    expect(error).toBeInstanceOf(OAuthCallbackError);
    const inner = error.cause?.err as Error;
    const cause = inner.cause as { body: unknown; parameters: URLSearchParams };
    expect(cause.body).toEqual({ access_token: "[redacted]", nested: [{ refresh_token: "[redacted]" }], ok: 1 });
    expect(cause.parameters.get("code")).toBe("[redacted]");
    expect(cause.parameters.get("state")).toBe("S");
  });
});
