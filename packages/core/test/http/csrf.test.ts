/**
 * The CSRF token's own contract (http/csrf.ts), below the routes: only a POST proves it, and a route
 * that only reads it (a flow's callback) never makes one.
 */
import { describe, expect, it } from "vitest";
import { defaultCookies } from "../../src/http/cookies.js";
import { resolveCsrf } from "../../src/http/csrf.js";
import type { RequestInternal } from "../../src/types/internal.js";

const secrets = ["csrf-unit-secret-0123456789abcdef"];
const origin = "http://localhost:3000";
const option = defaultCookies(false).csrfToken;

/** A parsed request with these cookies, method and body. */
function requestWith(cookies: Record<string, string>, method: "GET" | "POST" = "GET", body: Record<string, unknown> = {}): RequestInternal {
  const url = new URL(`${origin}/auth/csrf`);
  return { request: new Request(url), url, method, action: "csrf", query: {}, body, cookies, headers: new Headers() };
}

describe("resolveCsrf", () => {
  it("a GET with a valid cookie and the token is never verified: only a POST proves the token", async () => {
    const minted = await resolveCsrf(requestWith({}), option, secrets, origin, true);
    const cookies = { [option.name]: minted.cookie?.value as string };
    const get = await resolveCsrf(requestWith(cookies, "GET", { csrfToken: minted.token }), option, secrets, origin, true);
    expect(get).toEqual({ token: minted.token, verified: false });
    const post = await resolveCsrf(requestWith(cookies, "POST", { csrfToken: minted.token }), option, secrets, origin, true);
    expect(post).toEqual({ token: minted.token, verified: true });
  });

  it("a route that only reads the token gets the empty token and no cookie when the request has none", async () => {
    expect(await resolveCsrf(requestWith({}), option, secrets, origin, false)).toEqual({ token: "", verified: false });
    expect(await resolveCsrf(requestWith({ [option.name]: "forged|mac" }), option, secrets, origin, false)).toEqual({
      token: "",
      verified: false,
    });
  });

  it("a minting route makes a new, unverified token and its cookie", async () => {
    const minted = await resolveCsrf(requestWith({}), option, secrets, origin, true);
    expect(minted.verified).toBe(false);
    expect(minted.token).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.cookie).toMatchObject({ name: option.name, options: option.options });
    expect(minted.cookie?.value.startsWith(`${minted.token}|`)).toBe(true);
  });
});
