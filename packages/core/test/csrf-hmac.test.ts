/**
 * Issue 15, item 3: the CSRF cookie's HMAC is computed synchronously on node:crypto (key object made once
 * per secret) or on WebCrypto with the key imported once per secret. Both must give exactly the bytes of
 * the reference implementation (`crypto/compare.ts`'s `hmacHex`), or cookies issued before would stop
 * verifying; and a cookie signed under another secret must still be refused.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hmacHex } from "../src/crypto/compare.js";
import { csrfHmacHex, webCryptoHmacHex } from "../src/http/csrf-hmac.js";
import Credentials from "../src/providers/credentials.js";
import { authClient } from "./helpers/auth-client.js";

describe("CSRF HMAC", () => {
  it("node:crypto and WebCrypto paths equal hmacHex on random secrets and values (unicode included)", async () => {
    expect(typeof csrfHmacHex("s", "v")).toBe("string"); // on Node the synchronous path is the one taken
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 80, unit: "grapheme" }),
        fc.string({ maxLength: 200, unit: "grapheme" }),
        async (secret, value) => {
          const expected = await hmacHex(secret, value);
          expect(await csrfHmacHex(secret, value)).toBe(expected);
          expect(await webCryptoHmacHex(secret, value)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("more secrets than the key cache holds still give the right HMAC for each", async () => {
    const secrets = Array.from({ length: 40 }, (_, i) => `secret-${i}`);
    for (let round = 0; round < 2; round++) {
      for (const secret of secrets) {
        expect(await csrfHmacHex(secret, "x")).toBe(await hmacHex(secret, "x"));
        expect(await webCryptoHmacHex(secret, "x")).toBe(await hmacHex(secret, "x"));
      }
    }
  });

  it("a CSRF cookie minted under another secret is replaced, and its token does not verify a POST", async () => {
    const base = {
      trustHost: true,
      providers: [
        Credentials({ credentials: { username: {} }, authorize: (c: Record<string, unknown>) => ({ id: "u1", name: String(c.username) }) }),
      ],
    };
    const attackerApp = authClient({ ...base, secret: "attacker-controlled-secret-0123456789" });
    const plantedToken = await attackerApp.csrf();
    const planted = attackerApp.jar.get("authlib.csrf-token") as string;
    const victim = authClient({ ...base, secret: "the-real-app-secret-abcdefghijklmnop" });
    const response = await victim.send("/auth/callback/credentials", {
      form: { csrfToken: plantedToken, username: "mallory" },
      headers: { cookie: `authlib.csrf-token=${encodeURIComponent(planted)}` },
    });
    expect(response.headers.get("location") ?? "").toContain("error=MissingCSRF");
    expect(victim.jar.get("authlib.session-token")).toBeUndefined();
  });
});
