/**
 * Key derivation for JWE session tokens, compatible with Auth.js v5: HKDF-SHA256 over the secret, with
 * the salt argument (the cookie name) as salt, and a fixed info string. Derived keys are cached, so a
 * hot decode does no HKDF work.
 */
import { base64url, calculateJwkThumbprint } from "jose";

/** Content encryption algorithms a session token may use. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM";

/** A derived key and its id (RFC 7638 thumbprint), as written in the JWE header. */
export interface DerivedKey {
  key: Uint8Array;
  kid: string;
}

const keyLengths: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, A256GCM: 32 };
const MAX_CACHED_KEYS = 128;
const cache = new Map<string, Promise<DerivedKey>>();
const encoder = new TextEncoder();

/** True for the `enc` values authlib can decrypt. */
export function isSupportedEncryption(enc: unknown): enc is ContentEncryption {
  return enc === "A256CBC-HS512" || enc === "A256GCM";
}

/** Derives (or takes from the cache) the key for `secret` + `salt` + `enc`. */
export function deriveEncryptionKey(enc: ContentEncryption, secret: string, salt: string): Promise<DerivedKey> {
  const id = `${enc}\u0000${salt}\u0000${secret}`;
  const cached = cache.get(id);
  if (cached) return cached;
  const derived = derive(enc, secret, salt);
  // Never cache a failure: drop the entry if derivation rejects.
  derived.catch(() => cache.delete(id));
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(id, derived);
  return derived;
}

async function derive(enc: ContentEncryption, secret: string, salt: string): Promise<DerivedKey> {
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
