/**
 * The encryption key and key id Auth.js v5 derives for a session cookie, computed with node:crypto
 * directly (not with src), so that the JWE codec tests check src against an independent reference.
 */
import { createHash, hkdfSync } from "node:crypto";

/** The two content encryptions Auth.js issues session tokens with. */
export type AuthjsEnc = "A256CBC-HS512" | "A256GCM";

/** Auth.js v5's HKDF key and RFC 7638 kid for (enc, secret, salt); the salt is the cookie name. */
export function authjsKey(enc: AuthjsEnc, secret: string, salt: string): { key: Buffer; kid: string } {
  const length = enc === "A256GCM" ? 32 : 64;
  const key = Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length));
  const kid = createHash(length === 64 ? "sha512" : "sha256")
    .update(`{"k":"${key.toString("base64url")}","kty":"oct"}`)
    .digest("base64url");
  return { key, kid };
}
