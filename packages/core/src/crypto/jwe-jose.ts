/**
 * Session tokens through `jose` itself: the reference the fast codecs (`crypto/jwe-node`,
 * `crypto/jwe-webcrypto`) are held to, used here only for what they hand over: a token whose payload is
 * compressed (`zip: "DEF"`, which authlib and Auth.js never issue), and claims jose refuses to issue
 * (so `encode` throws exactly as before).
 *
 * @module crypto/jwe-jose
 */
import { jwtDecrypt } from "jose/jwt/decrypt";
import { EncryptJWT } from "jose/jwt/encrypt";
import { JWTSessionError } from "../errors.js";
import { deriveEncryptionKey, isSupportedEncryption } from "./derive-key.js";
import { CLOCK_TOLERANCE, noMatchingSecret } from "./jwe-rules.js";

/** jose's `jwtDecrypt` with authlib's options and key resolution; rejects with `JWTSessionError`. */
export async function joseDecrypt(token: string, secrets: readonly string[], salt: string): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtDecrypt(
      token,
      async ({ kid, enc }) => {
        if (!isSupportedEncryption(enc)) throw new JWTSessionError(`Unsupported content encryption: ${String(enc)}`);
        for (const candidate of secrets) {
          const derived = await deriveEncryptionKey(enc, candidate, salt);
          // A token without a kid can only come from the first (current) secret.
          if (kid === undefined || derived.kid === kid) return derived.key;
        }
        throw noMatchingSecret();
      },
      { clockTolerance: CLOCK_TOLERANCE, keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256CBC-HS512", "A256GCM"] },
    );
    return payload;
  } catch (error) {
    if (error instanceof JWTSessionError) throw error;
    const refused = new JWTSessionError("The token could not be decrypted or has expired.", { cause: error as Error });
    // An ended session, not a tampered token (as jwe-rules' `expired()`).
    if ((error as { code?: unknown }).code === "ERR_JWT_EXPIRED") refused.code = "expired";
    throw refused;
  }
}

/** jose's `EncryptJWT` of `token` with `iat`, `exp` (now + `maxAge`) and a fresh `jti`. */
export async function joseEncrypt(token: unknown, secret: string, salt: string, now: number, maxAge: number): Promise<string> {
  const { key, kid } = await deriveEncryptionKey("A256CBC-HS512", secret, salt);
  return new EncryptJWT(token as Record<string, unknown>)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(crypto.randomUUID())
    .encrypt(key);
}
