/**
 * Malformed input never crashes Auth() and never yields a 5xx (CVE-2022-31093 class): random paths, query
 * strings, headers, cookies and bodies against every route, with a real configuration.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getToken } from "../../src/jwt.js";
import { Auth } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";

const config: AuthConfig = {
  secret: "fuzz-secret-0123456789abcdef0123456789",
  trustHost: true,
  providers: [
    Credentials({ authorize: () => null }),
    { id: "op", name: "OP", type: "oidc", issuer: "http://127.0.0.1:9", clientId: "c", clientSecret: "s" },
  ],
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
};

const segment = fc.oneof(
  fc.constantFrom(
    "providers",
    "csrf",
    "session",
    "signin",
    "callback",
    "signout",
    "error",
    "verify-request",
    "webauthn-options",
    "credentials",
    "op",
    "%",
    "%zz",
    "..",
    "%2e%2e",
    "undefined",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const nasty = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    "%",
    "%E0%A4%A",
    "//evil.example",
    "/\\evil",
    "javascript:alert(1)",
    "\u0000",
    "\uD800",
    "a".repeat(5000),
    "http://[::1",
    "http://a:b@c",
  ),
);

describe("fuzzing Auth()", () => {
  it("answers every malformed request with a non-5xx response", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "HEAD", "OPTIONS", "DELETE"),
        fc.array(segment, { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("callbackUrl", "error", "code", "token", "email", "action", "state", "csrfToken", "x"), nasty, {
          maxKeys: 4,
        }),
        fc.record({
          cookie: fc.option(
            fc.oneof(
              nasty,
              nasty.map((v) => `authlib.session-token=${v}; authlib.csrf-token=${v}; authlib.callback-url=${v}`),
            ),
            { nil: undefined },
          ),
          contentType: fc.constantFrom(
            "application/json",
            "application/x-www-form-urlencoded",
            "text/plain",
            "multipart/form-data; boundary=x",
            "",
          ),
          body: fc.option(nasty, { nil: undefined }),
          host: fc.option(fc.constantFrom("evil.example", "a b", "[::1]:99999", "x/y", ""), { nil: undefined }),
          proto: fc.option(fc.constantFrom("javascript", "https", "ftp", ""), { nil: undefined }),
        }),
        async (method, segments, query, h) => {
          const url = new URL(`http://localhost:3000/auth/${segments.join("/")}`);
          for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
          const headers = new Headers();
          // Headers must be Latin-1 without controls (fetch refuses the rest before Auth() sees it).
          const safe = (v: string) => [...v].filter((c) => c >= " " && c <= "~").join("");
          if (h.cookie !== undefined) headers.set("cookie", safe(h.cookie));
          if (h.contentType) headers.set("content-type", h.contentType);
          if (h.host !== undefined) headers.set("x-forwarded-host", safe(h.host));
          if (h.proto !== undefined) headers.set("x-forwarded-proto", h.proto);
          const hasBody = method === "POST" || method === "PUT" || method === "DELETE";
          const request = new Request(url, { method, headers, body: hasBody ? (h.body ?? "") : undefined });
          const response = await Auth(request, config);
          expect(response.status).toBeLessThan(500);
          // With trustHost, a well-formed X-Forwarded-Host is the app's own origin by definition; without
          // one, every redirect must stay on the request's origin.
          const location = response.headers.get("location");
          if (location && h.host === undefined && h.proto === undefined) expect(new URL(location).origin).toBe("http://localhost:3000");
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each(["[::1]:99999", "example.com:70000", "bad host", "evil.example/path"])(
    "an X-Forwarded-Host that is not a valid host (%s) falls back to the request origin",
    async (host) => {
      for (const path of ["/auth/signin", "/auth/nope", "/auth/session"]) {
        const response = await Auth(
          new Request(`http://localhost:3000${path}`, { method: "POST", headers: { "x-forwarded-host": host } }),
          config,
        );
        expect(response.status).toBeLessThan(500);
        const location = response.headers.get("location");
        if (location) expect(new URL(location).origin).toBe("http://localhost:3000");
      }
    },
  );

  it("getToken never throws on malformed headers", async () => {
    await fc.assert(
      fc.asyncProperty(nasty, nasty, async (cookie, authorization) => {
        const req = { headers: { cookie, authorization: `Bearer ${authorization}` } };
        expect(await getToken({ req, secret: "s".repeat(32) })).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});
