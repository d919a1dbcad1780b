/**
 * Which cookies authlib writes and which it believes (http/cookies.ts), and how a flow's cookies are bound
 * to the browser that started it (http/flow-binding.ts): cookie names, prefixes and attributes, the legacy
 * session names that may be read, and the binding and callback-URL seal, driven directly.
 */
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CHUNK_SIZE } from "../../src/http/cookie-chunks.js";
import {
  authjsSessionCookieName,
  CHECK_COOKIE_MAX_AGE,
  clearChunkedCookie,
  defaultCookies,
  expiredCookie,
  HOST_PREFIX,
  incomingSessionCookieName,
  LEGACY_SECURE_PREFIX,
  legacySessionCookieNames,
  resolveCookies,
  writeChunkedCookie,
} from "../../src/http/cookies.js";
import {
  ANONYMOUS,
  bindingMatches,
  bindingOf,
  currentSubject,
  openCallbackUrl,
  requestBinding,
  sealCallbackUrl,
} from "../../src/http/flow-binding.js";
import { builtInCookies } from "../../src/kernel/features.js";
import type { CookiesOptions } from "../../src/types/config.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";

const base = { httpOnly: true, sameSite: "lax", path: "/" } as const;
const check = CHECK_COOKIE_MAX_AGE;

describe("default cookie names and attributes", () => {
  it("on https every cookie is __Host-, HttpOnly, SameSite=Lax, Path=/ and Secure; the check cookies live 15 minutes", () => {
    const secure = { ...base, secure: true };
    expect(CHECK_COOKIE_MAX_AGE).toBe(900);
    expect(HOST_PREFIX).toBe("__Host-");
    expect(LEGACY_SECURE_PREFIX).toBe("__Secure-");
    expect(defaultCookies(true, builtInCookies)).toEqual({
      sessionToken: { name: "__Host-authlib.session-token", options: secure },
      callbackUrl: { name: "__Host-authlib.callback-url", options: secure },
      csrfToken: { name: "__Host-authlib.csrf-token", options: secure },
      pkceCodeVerifier: { name: "__Host-authlib.pkce.code_verifier", options: { ...secure, maxAge: 900 } },
      state: { name: "__Host-authlib.state", options: { ...secure, maxAge: 900 } },
      nonce: { name: "__Host-authlib.nonce", options: { ...secure, maxAge: 900 } },
      webauthnChallenge: { name: "__Host-authlib.challenge", options: { ...secure, maxAge: 900 } },
      deviceToken: { name: "__Host-authlib.device-token", options: { ...secure, maxAge: 31_536_000 } },
      emailFlow: { name: "__Host-authlib.email-flow", options: secure },
      twoFactor: { name: "__Host-authlib.two-factor", options: secure },
      sessionAssurance: { name: "__Host-authlib.session-assurance", options: secure },
    });
  });

  it("on http the names have no prefix and the cookies are not Secure", () => {
    const plain = { ...base, secure: false };
    expect(defaultCookies(false, builtInCookies)).toEqual({
      sessionToken: { name: "authlib.session-token", options: plain },
      callbackUrl: { name: "authlib.callback-url", options: plain },
      csrfToken: { name: "authlib.csrf-token", options: plain },
      pkceCodeVerifier: { name: "authlib.pkce.code_verifier", options: { ...plain, maxAge: check } },
      state: { name: "authlib.state", options: { ...plain, maxAge: check } },
      nonce: { name: "authlib.nonce", options: { ...plain, maxAge: check } },
      webauthnChallenge: { name: "authlib.challenge", options: { ...plain, maxAge: check } },
      deviceToken: { name: "authlib.device-token", options: { ...plain, maxAge: 31_536_000 } },
      emailFlow: { name: "authlib.email-flow", options: plain },
      twoFactor: { name: "authlib.two-factor", options: plain },
      sessionAssurance: { name: "authlib.session-assurance", options: plain },
    });
  });

  it("each cookie has its own options object: changing one leaves the others alone", () => {
    const cookies = defaultCookies(true);
    cookies.sessionToken.options.maxAge = 5;
    expect(cookies.callbackUrl.options.maxAge).toBeUndefined();
    expect(defaultCookies(true).sessionToken.options.maxAge).toBeUndefined();
  });
});

describe("cookie overrides", () => {
  it("without overrides the defaults are used", () => {
    expect(resolveCookies(true)).toEqual(defaultCookies(true));
    expect(resolveCookies(false, {})).toEqual(defaultCookies(false));
  });

  it("an override changes only its own cookie, merging its options over the defaults", () => {
    const cookies = resolveCookies(true, { sessionToken: { options: { maxAge: 60 } } as CookiesOptions["sessionToken"] });
    expect(cookies.sessionToken).toEqual({ name: "__Host-authlib.session-token", options: { ...base, secure: true, maxAge: 60 } });
    expect(cookies.csrfToken).toEqual(defaultCookies(true).csrfToken);
  });

  it("a cookie given a Domain can no longer be __Host-: it falls back to __Secure-", () => {
    const cookies = resolveCookies(true, { sessionToken: { options: { domain: "example.com" } } as CookiesOptions["sessionToken"] });
    expect(cookies.sessionToken).toEqual({
      name: "__Secure-authlib.session-token",
      options: { ...base, secure: true, domain: "example.com" },
    });
  });

  it("a cookie given a Path other than / can no longer be __Host-: it falls back to __Secure-", () => {
    const cookies = resolveCookies(true, { state: { options: { path: "/auth" } } as CookiesOptions["state"] });
    expect(cookies.state.name).toBe("__Secure-authlib.state");
    expect(cookies.state.options).toEqual({ ...base, path: "/auth", secure: true, maxAge: check });
  });

  it("an override that keeps Path=/ and no Domain keeps the __Host- name", () => {
    const cookies = resolveCookies(true, { nonce: { options: { path: "/", sameSite: "strict" } } as CookiesOptions["nonce"] });
    expect(cookies.nonce.name).toBe("__Host-authlib.nonce");
    expect(cookies.nonce.options.sameSite).toBe("strict");
  });

  it("secure: false drops the prefix altogether", () => {
    const cookies = resolveCookies(true, { csrfToken: { options: { secure: false } } as CookiesOptions["csrfToken"] });
    expect(cookies.csrfToken).toEqual({ name: "authlib.csrf-token", options: { ...base, secure: false } });
  });

  it("on http an override with a Domain keeps the unprefixed name", () => {
    const cookies = resolveCookies(false, { callbackUrl: { options: { domain: "example.com" } } as CookiesOptions["callbackUrl"] });
    expect(cookies.callbackUrl.name).toBe("authlib.callback-url");
  });

  it("a name of the user's own wins over the prefixed default", () => {
    const cookies = resolveCookies(true, {
      sessionToken: { name: "my-session", options: { domain: "example.com" } },
    });
    expect(cookies.sessionToken).toEqual({ name: "my-session", options: { ...base, secure: true, domain: "example.com" } });
  });
});

describe("legacy session cookie names", () => {
  it("Auth.js names its session cookie __Secure-authjs.session-token on https, authjs.session-token on http", () => {
    expect(authjsSessionCookieName(true)).toBe("__Secure-authjs.session-token");
    expect(authjsSessionCookieName(false)).toBe("authjs.session-token");
  });

  it("without acceptAuthjsSessions no legacy name is read (a sibling subdomain could plant one)", () => {
    expect(legacySessionCookieNames(defaultCookies(true), false)).toEqual([]);
    expect(legacySessionCookieNames(defaultCookies(false), false)).toEqual([]);
  });

  it("while migrating, on https with the default name, the former __Secure- name is read, then Auth.js's", () => {
    expect(legacySessionCookieNames(defaultCookies(true), true)).toEqual([
      "__Secure-authlib.session-token",
      "__Secure-authjs.session-token",
    ]);
  });

  it("on http only Auth.js's http name, and only when accepted", () => {
    expect(legacySessionCookieNames(defaultCookies(false), false)).toEqual([]);
    expect(legacySessionCookieNames(defaultCookies(false), true)).toEqual(["authjs.session-token"]);
  });

  it("a custom session cookie name has no authlib legacy name", () => {
    const cookies = resolveCookies(true, { sessionToken: { name: "custom", options: {} } });
    expect(legacySessionCookieNames(cookies, false)).toEqual([]);
    expect(legacySessionCookieNames(cookies, true)).toEqual(["__Secure-authjs.session-token"]);
  });

  it("a session cookie whose Secure flag is unset is read under Auth.js's http name", () => {
    const cookies = { ...defaultCookies(true), sessionToken: { name: "custom", options: {} } };
    expect(legacySessionCookieNames(cookies, true)).toEqual(["authjs.session-token"]);
  });

  it("the configured name itself is never listed as a legacy name", () => {
    const cookies = resolveCookies(false, { sessionToken: { name: "authjs.session-token", options: {} } });
    expect(legacySessionCookieNames(cookies, true)).toEqual([]);
  });
});

describe("the name a request's session is read from", () => {
  const cookies = defaultCookies(true);
  const configured = "__Host-authlib.session-token";

  it("the configured name when the request has that cookie, even next to legacy ones", () => {
    const request = { [configured]: "a", "__Secure-authlib.session-token": "b", "__Secure-authjs.session-token": "c" };
    expect(incomingSessionCookieName(cookies, request, true)).toBe(configured);
  });

  it("the configured name when the request has only a chunk of it", () => {
    expect(incomingSessionCookieName(cookies, { [`${configured}.0`]: "a", "__Secure-authlib.session-token": "b" }, true)).toBe(configured);
  });

  it("the first legacy name present, in order, when the configured cookie and every __Host- cookie are absent", () => {
    const both = { "__Secure-authjs.session-token": "c", "__Secure-authlib.session-token": "b" };
    expect(incomingSessionCookieName(cookies, both, true)).toBe("__Secure-authlib.session-token");
    expect(incomingSessionCookieName(cookies, { "__Secure-authjs.session-token": "c" }, true)).toBe("__Secure-authjs.session-token");
  });

  it("a legacy cookie is not read unless Auth.js sessions are accepted", () => {
    expect(incomingSessionCookieName(cookies, { "__Secure-authjs.session-token": "c" }, false)).toBe(configured);
    expect(incomingSessionCookieName(cookies, { "__Secure-authlib.session-token": "b" }, false)).toBe(configured);
  });

  it("a legacy cookie is not read when the request carries any __Host- cookie of authlib's", () => {
    const legacy = { "__Secure-authjs.session-token": "c", "__Secure-authlib.session-token": "b" };
    for (const host of [
      "__Host-authlib.csrf-token",
      "__Host-authlib.callback-url",
      "__Host-authlib.state",
      "__Host-authlib.pkce.code_verifier",
      "__Host-authlib.anything-else",
    ]) {
      expect(incomingSessionCookieName(cookies, { ...legacy, [host]: "x" }, true)).toBe(configured);
    }
    // A renamed __Host- cookie of the configuration counts too; a foreign __Host- cookie does not.
    const renamed = { ...cookies, csrfToken: { ...cookies.csrfToken, name: "__Host-my-csrf" } };
    expect(incomingSessionCookieName(renamed, { ...legacy, "__Host-my-csrf": "x" }, true)).toBe(configured);
    expect(incomingSessionCookieName(cookies, { ...legacy, "__Host-other-app": "x" }, true)).toBe("__Secure-authlib.session-token");
  });

  it("the configured name when no session cookie is present", () => {
    expect(incomingSessionCookieName(cookies, { other: "x" }, true)).toBe(configured);
  });

  it("on http (no __Host- names) the configured cookie still wins over Auth.js's legacy one", () => {
    const plain = defaultCookies(false);
    const request = { "authlib.session-token": "a", "authjs.session-token": "c" };
    expect(incomingSessionCookieName(plain, request, true)).toBe("authlib.session-token");
    expect(incomingSessionCookieName(plain, { "authjs.session-token": "c" }, true)).toBe("authjs.session-token");
  });

  it("a chunk of a renamed __Host- cookie counts as authlib's; a configured name without the prefix does not", () => {
    const legacy = { "__Secure-authlib.session-token": "b" };
    const renamed = { ...cookies, csrfToken: { ...cookies.csrfToken, name: "__Host-my-csrf" } };
    expect(incomingSessionCookieName(renamed, { ...legacy, "__Host-my-csrf.0": "x" }, true)).toBe(configured);
    // A cookie under a configured name without `__Host-` may have been planted by a sibling host.
    const unprefixed = { ...cookies, csrfToken: { ...cookies.csrfToken, name: "my-csrf" } };
    expect(incomingSessionCookieName(unprefixed, { ...legacy, "my-csrf": "x" }, true)).toBe("__Secure-authlib.session-token");
  });
});

describe("writing and deleting cookies", () => {
  it("an expired cookie has an empty value, Max-Age 0, no Expires, and keeps the other attributes", () => {
    const options = { ...base, secure: true, domain: "example.com", maxAge: 60, expires: new Date(0) };
    expect(expiredCookie("name", options)).toEqual({
      name: "name",
      value: "",
      options: { ...base, secure: true, domain: "example.com", maxAge: 0 },
    });
    expect("expires" in expiredCookie("name", options).options).toBe(false);
  });

  it("a small value is one cookie with the cookie's options and the extra ones", () => {
    const option = defaultCookies(true).sessionToken;
    expect(writeChunkedCookie(option, "value", {})).toEqual([{ name: option.name, value: "value", options: option.options }]);
    expect(writeChunkedCookie(option, "value", {}, { maxAge: 30 })).toEqual([
      { name: option.name, value: "value", options: { ...option.options, maxAge: 30 } },
    ]);
  });

  it("a large value is written in chunks and the previous plain cookie is deleted first", () => {
    const option = defaultCookies(false).sessionToken;
    const value = "x".repeat(CHUNK_SIZE + 10);
    const written = writeChunkedCookie(option, value, { [option.name]: "old", other: "keep" });
    expect(written).toEqual([
      { name: option.name, value: "", options: { ...option.options, maxAge: 0 } },
      { name: `${option.name}.0`, value: "x".repeat(CHUNK_SIZE), options: option.options },
      { name: `${option.name}.1`, value: "x".repeat(10), options: option.options },
    ]);
  });

  it("chunks of the previous value that the new value does not overwrite are deleted (with the cookie's own options, not the extra ones)", () => {
    const option = defaultCookies(false).sessionToken;
    const request = { [`${option.name}.0`]: "a", [`${option.name}.1`]: "b", [`${option.name}.2`]: "c" };
    expect(writeChunkedCookie(option, "small", request, { maxAge: 30 })).toEqual([
      { name: `${option.name}.0`, value: "", options: { ...option.options, maxAge: 0 } },
      { name: `${option.name}.1`, value: "", options: { ...option.options, maxAge: 0 } },
      { name: `${option.name}.2`, value: "", options: { ...option.options, maxAge: 0 } },
      { name: option.name, value: "small", options: { ...option.options, maxAge: 30 } },
    ]);
    const value = "y".repeat(CHUNK_SIZE + 1);
    expect(writeChunkedCookie(option, value, request).map((c) => [c.name, c.value.length])).toEqual([
      [`${option.name}.2`, 0],
      [`${option.name}.0`, CHUNK_SIZE],
      [`${option.name}.1`, 1],
    ]);
  });

  it("an empty value only deletes what the request has; clearing deletes every chunk", () => {
    const option = defaultCookies(true).state;
    const expired = { ...option.options, maxAge: 0 };
    expect(writeChunkedCookie(option, "", {})).toEqual([]);
    expect(clearChunkedCookie(option, {})).toEqual([]);
    expect(clearChunkedCookie(option, { [option.name]: "v", [`${option.name}.3`]: "w", unrelated: "z" })).toEqual([
      { name: option.name, value: "", options: expired },
      { name: `${option.name}.3`, value: "", options: expired },
    ]);
  });
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");

/** Options whose session strategy reports `user` as signed in, with this CSRF token. */
function optionsWith(user: { id?: unknown } | null, csrfToken = "csrf-token"): InternalOptions {
  return { csrfToken, sessionStrategy: { currentUser: async () => user } } as unknown as InternalOptions;
}
const request = {} as RequestInternal;

describe("the flow binding", () => {
  it("is the SHA-256 of the label, the CSRF token and the subject, separated by NUL", async () => {
    expect(await bindingOf("token", "user-1")).toBe(sha256("authlib.flow-binding\u0000token\u0000user-1"));
    expect(await bindingOf("token", ANONYMOUS)).toBe(sha256("authlib.flow-binding\u0000token\u0000anonymous"));
  });

  it("is empty without a CSRF token", async () => {
    expect(await bindingOf("", "user-1")).toBe("");
  });

  it("the subject is the signed-in user's id as a string, or anonymous", async () => {
    expect(ANONYMOUS).toBe("anonymous");
    expect(await currentSubject(optionsWith({ id: 42 }), request)).toBe("42");
    expect(await currentSubject(optionsWith({ id: "u1" }), request)).toBe("u1");
    expect(await currentSubject(optionsWith(null), request)).toBe("anonymous");
    expect(await currentSubject(optionsWith({ id: "" }), request)).toBe("anonymous");
    expect(await currentSubject(optionsWith({}), request)).toBe("anonymous");
  });

  it("a request's binding is made from its CSRF token and its subject", async () => {
    expect(await requestBinding(optionsWith({ id: "u1" }, "tok"), request)).toBe(await bindingOf("tok", "u1"));
    expect(await requestBinding(optionsWith(null, "tok"), request)).toBe(await bindingOf("tok", "anonymous"));
    expect(await requestBinding(optionsWith({ id: "u1" }, ""), request)).toBe("");
  });

  it("a sealed binding matches only the same non-empty string", async () => {
    const current = await bindingOf("tok", "u1");
    expect(bindingMatches(current, current)).toBe(true);
    expect(bindingMatches(await bindingOf("other", "u1"), current)).toBe(false);
    expect(bindingMatches(await bindingOf("tok", "u2"), current)).toBe(false);
    expect(bindingMatches(undefined, current)).toBe(false);
    expect(bindingMatches(123, "123")).toBe(false);
    expect(bindingMatches("", "")).toBe(false);
    expect(bindingMatches("", current)).toBe(false);
    expect(bindingMatches(current, "")).toBe(false);
  });
});

describe("the callback-URL cookie", () => {
  const secret = "callback-secret-0123456789abcdef";
  const url = "https://app.example/after|sign-in";

  it("is the HMAC of the URL and the browser's subject-less binding, then | and the URL", async () => {
    const binding = sha256("authlib.flow-binding\u0000tok\u0000");
    expect(await sealCallbackUrl(secret, "tok", url)).toBe(
      `${hmac(secret, `authlib.flow-binding:callback-url\u0000${binding}\u0000${url}`)}|${url}`,
    );
  });

  it("opens in the browser that sealed it, under the current or an older secret", async () => {
    const sealed = await sealCallbackUrl(secret, "tok", url);
    expect(await openCallbackUrl([secret], "tok", sealed)).toBe(url);
    expect(await openCallbackUrl(["new-secret-0123456789abcdef012345", secret], "tok", sealed)).toBe(url);
  });

  it("does not open in another browser, under another secret, or edited", async () => {
    const sealed = await sealCallbackUrl(secret, "tok", url);
    expect(await openCallbackUrl([secret], "other-tok", sealed)).toBeUndefined();
    expect(await openCallbackUrl(["new-secret-0123456789abcdef012345"], "tok", sealed)).toBeUndefined();
    expect(await openCallbackUrl([secret], "tok", `${sealed}x`)).toBeUndefined();
    expect(await openCallbackUrl([secret], "tok", url)).toBeUndefined();
  });

  it("is never opened for a browser without a CSRF token, even one sealed for the empty token", async () => {
    const sealed = await sealCallbackUrl(secret, "", url);
    expect(await openCallbackUrl([secret], "", sealed)).toBeUndefined();
  });

  it("a value without a MAC before the | is not opened", async () => {
    expect(await openCallbackUrl([secret], "tok", `|${url}`)).toBeUndefined();
    expect(await openCallbackUrl([secret], "tok", "no-separator")).toBeUndefined();
  });
});
