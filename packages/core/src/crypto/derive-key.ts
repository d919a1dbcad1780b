/**
 * Key derivation for JWE session tokens, compatible with Auth.js v5: HKDF-SHA256 over the secret, with
 * the salt argument (the cookie name) as salt, and a fixed info string. Nothing is cached here: the
 * codecs cache what they use (`KeyObject`s in `crypto/jwe-node`, `CryptoKey`s in `crypto/jwe-webcrypto`),
 * so raw key bytes do not stay in memory.
 */
import * as base64url from "jose/base64url";
import { calculateJwkThumbprint } from "jose/jwk/thumbprint";

/** Content encryption algorithms a session token may use. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM";

/** A derived key and its id (RFC 7638 thumbprint), as written in the JWE header. */
export interface DerivedKey {
  key: Uint8Array;
  kid: string;
}

const keyLengths: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, A256GCM: 32 };
const encoder = new TextEncoder();

/** True for the `enc` values authlib can decrypt. */
export function isSupportedEncryption(enc: unknown): enc is ContentEncryption {
  return enc === "A256CBC-HS512" || enc === "A256GCM";
}

/** Derives the key for `secret` + `salt` + `enc`, and its id. */
export async function deriveEncryptionKey(enc: ContentEncryption, secret: string, salt: string): Promise<DerivedKey> {
  const length = keyLengths[enc];
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Auth.js Generated Encryption Key (${salt})`),
    },
    material,
    length * 8,
  );
  const key = new Uint8Array(bits);
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, `sha${length * 8}` as "sha256" | "sha512");
  return { key, kid };
}
