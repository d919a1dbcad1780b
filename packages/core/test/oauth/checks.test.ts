/**
 * The sealed PKCE / state / nonce cookies (oauth/checks.ts) on their own: what a callback accepts, what it
 * refuses and why, whether a flow counts as a link, and how the cookies are set and cleared.
 */
import { describe, expect, it } from "vitest";
import { InvalidCheck, JWTSessionError } from "../../src/errors.js";
import { CHECK_COOKIE_MAX_AGE } from "../../src/http/cookies.js";
import { encode } from "../../src/jwt.js";
import { checkBinding, clearCheckCookies, flowIsLink, openCheck, resolveChecks, sealCheck } from "../../src/oauth/checks.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import { contextFor, recordingLogger, SECRET } from "./support.js";

const provider: OAuthConfig = {
  id: "idp",
  name: "IdP",
  type: "oidc",
  issuer: "https://idp.example",
  clientId: "client",
  clientSecret: "s",
};
const binding = checkBinding(provider, "http://localhost:3000/auth/callback/idp");

/** The callback's context carrying the cookies the start set. */
function callbackWith(cookies: Array<{ name: string; value: string }>, overrides: Parameters<typeof contextFor>[1] = {}) {
  return contextFor(provider, { requestCookies: Object.fromEntries(cookies.map((c) => [c.name, c.value])), ...overrides });
}

/** The InvalidCheck `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<InvalidCheck> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidCheck);
  return error as InvalidCheck;
}

describe("sealing and opening a check", () => {
  it("the value sealed at the start is the value opened at the callback", async () => {
    const cookie = await sealCheck(contextFor(provider), "nonce", "n-123", binding);
    expect(cookie.name).toBe("authlib.nonce");
    expect(cookie.value).not.toContain("n-123");
    expect(await openCheck(callbackWith([cookie]), "nonce", binding)).toBe("n-123");
  });

  it("the cookie lives 15 minutes with the configured options; extra options win", async () => {
    const cookie = await sealCheck(contextFor(provider), "state", "s", binding, { sameSite: "none", secure: true });
    expect(cookie.options).toMatchObject({ maxAge: CHECK_COOKIE_MAX_AGE, httpOnly: true, path: "/", sameSite: "none", secure: true });
    expect(CHECK_COOKIE_MAX_AGE).toBe(15 * 60);
  });

  it("a missing cookie is InvalidCheck naming the check", async () => {
    const error = await refusal(openCheck(callbackWith([]), "pkce", binding));
    expect(error.message).toContain("PKCE code verifier cookie was missing");
  });

  it("an unreadable cookie is InvalidCheck", async () => {
    const error = await refusal(openCheck(callbackWith([{ name: "authlib.state", value: "garbage" }]), "state", binding));
    expect(error.message).toContain("could not be read");
    expect((error.cause as { err?: Error } | undefined)?.err).toBeInstanceOf(JWTSessionError);
  });

  it.each([
    ["another check", { check: "state", value: "v" }],
    ["an empty value", { check: "nonce", value: "" }],
    ["a value that is not a string", { check: "nonce", value: 7 }],
    ["no value", { check: "nonce" }],
  ])("a sealed payload with %s is InvalidCheck", async (_, fields) => {
    const token = await encode({
      token: { ...binding, browser: "test-browser-binding", link: false, ...fields },
      secret: SECRET,
      salt: "authlib.nonce",
    });
    const error = await refusal(openCheck(callbackWith([{ name: "authlib.nonce", value: token }]), "nonce", binding));
    expect(error.message).toContain("could not be parsed");
  });

  it.each(["provider", "issuer", "clientId", "redirectUri"] as const)("a cookie of a flow with another %s is InvalidCheck", async (key) => {
    const cookie = await sealCheck(contextFor(provider), "state", "s", { ...binding, [key]: `${binding[key]}-other` });
    const error = await refusal(openCheck(callbackWith([cookie]), "state", binding));
    expect(error.message).toContain(`its ${key} differs`);
    expect(error.cause).toMatchObject({ check: "state", mismatch: key });
  });

  it("a cookie made in another browser, or with no browser binding, is InvalidCheck", async () => {
    const cookie = await sealCheck(contextFor(provider, { flowBinding: "browser-a" }), "state", "s", binding);
    const error = await refusal(openCheck(callbackWith([cookie], { flowBinding: "browser-b" }), "state", binding));
    expect(error.message).toContain("another browser");
    expect(error.cause).toMatchObject({ check: "state", mismatch: "browser" });
    const unbound = await sealCheck(contextFor(provider, { flowBinding: "" }), "state", "s", binding);
    await refusal(openCheck(callbackWith([unbound], { flowBinding: "" }), "state", binding));
  });
});

describe("whether a flow is a link", () => {
  it("only when every opened check was sealed for a link", async () => {
    const linking = contextFor(provider, { link: true });
    const plain = contextFor(provider);
    const state = await sealCheck(linking, "state", "s", binding);
    const pkce = await sealCheck(linking, "pkce", "p", binding);
    const plainNonce = await sealCheck(plain, "nonce", "n", binding);

    const allLink = callbackWith([state, pkce]);
    expect(flowIsLink(allLink)).toBe(false);
    await openCheck(allLink, "state", binding);
    await openCheck(allLink, "pkce", binding);
    expect(flowIsLink(allLink)).toBe(true);

    const mixed = callbackWith([state, plainNonce]);
    await openCheck(mixed, "state", binding);
    await openCheck(mixed, "nonce", binding);
    expect(flowIsLink(mixed)).toBe(false);

    const none = callbackWith([plainNonce]);
    await openCheck(none, "nonce", binding);
    expect(flowIsLink(none)).toBe(false);
  });
});

describe("clearing and binding", () => {
  it("clears exactly the cookies of the given checks, with the extra options", () => {
    const cleared = clearCheckCookies(contextFor(provider), ["pkce", "nonce"], { sameSite: "none" });
    expect(cleared.map((c) => c.name)).toEqual(["authlib.pkce.code_verifier", "authlib.nonce"]);
    for (const cookie of cleared) {
      expect(cookie.value).toBe("");
      expect(cookie.options).toMatchObject({ maxAge: 0, sameSite: "none", path: "/" });
    }
    expect(clearCheckCookies(contextFor(provider), [])).toEqual([]);
  });

  it("a provider with neither issuer, authorization URL nor client id binds to empty strings", () => {
    const bare: OAuthConfig = { id: "bare", name: "Bare", type: "oauth" };
    expect(checkBinding(bare, "http://localhost:3000/cb")).toEqual({
      provider: "bare",
      issuer: "",
      clientId: "",
      redirectUri: "http://localhost:3000/cb",
    });
  });

  it("the PKCE-unverified warning names the provider in its debug line", () => {
    const logger = recordingLogger();
    resolveChecks({ ...provider, id: "debug-line-unit", checks: ["pkce"] }, false, {}, logger);
    expect(logger.lines).toEqual([
      "warn pkce-unverified",
      'debug oauth: PKCE not advertised (no S256 in code_challenge_methods_supported), state check added {"provider":"debug-line-unit"}',
    ]);
  });

  it("a configured list with unknown entries keeps only pkce, state and nonce", () => {
    const checks = resolveChecks({ ...provider, checks: ["state", "none", "bogus" as "state"] }, false, {}, recordingLogger());
    expect([...checks]).toEqual(["state"]);
  });
});
