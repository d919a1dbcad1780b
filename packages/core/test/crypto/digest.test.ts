/**
 * Issue 15, item 3: the HMACs and hashes of CSRF cookies, flow bindings and email tokens are computed
 * synchronously on node:crypto (HMAC key object made once per secret) or on WebCrypto (key imported once
 * per secret). Both paths must give exactly the bytes of an independent reference (node:crypto used
 * directly), or cookies and tokens issued before would stop verifying; and a CSRF cookie signed under
 * another secret must still be refused.
 */
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hmacHex, sha256Hex, webCryptoHmacHex, webCryptoSha256Hex } from "../../src/crypto/digest.js";
import Credentials from "../../src/providers/credentials.js";
import { authClient } from "../helpers/auth-client.js";

const referenceHmac = (secret: string, value: string) => createHmac("sha256", secret).update(value, "utf8").digest("hex");

describe("HMAC-SHA256 and SHA-256 (crypto/digest)", () => {
  it("node:crypto and WebCrypto paths equal hmacHex on random secrets and values (unicode included)", async () => {
    expect(typeof hmacHex("s", "v")).toBe("string"); // on Node the synchronous path is the one taken
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 80, unit: "grapheme" }),
        fc.string({ maxLength: 200, unit: "grapheme" }),
        async (secret, value) => {
          const expected = referenceHmac(secret, value);
          expect(await hmacHex(secret, value)).toBe(expected);
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
        expect(await hmacHex(secret, "x")).toBe(referenceHmac(secret, "x"));
        expect(await webCryptoHmacHex(secret, "x")).toBe(referenceHmac(secret, "x"));
      }
    }
  });

  it("node:crypto and WebCrypto SHA-256 paths equal the reference on random values (unicode included)", async () => {
    expect(typeof sha256Hex("v")).toBe("string");
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300, unit: "grapheme" }), async (value) => {
        const expected = createHash("sha256").update(value, "utf8").digest("hex");
        expect(await sha256Hex(value)).toBe(expected);
        expect(await webCryptoSha256Hex(value)).toBe(expected);
      }),
      { numRuns: 300 },
    );
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
