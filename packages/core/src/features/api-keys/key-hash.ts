/**
 * How a key is stored: HMAC-SHA256 (hex) of its public id and secret, under a key derived from the auth
 * secret (`HMAC(secret, "authlib.api-key.hash-key.v1")`), so a copy of the database alone cannot check a
 * guessed key, and the hash of one app's key means nothing in another's. The derived key is used, never the
 * auth secret itself, so the hash cannot be confused with any other MAC authlib makes with the secret.
 *
 * A verification computes the hash under every secret of the rotation list and compares each in constant
 * time (`crypto/compare.ts`): against the stored hash when the id is known, against a dummy of the same
 * length when it is not, so an unknown id and a known id with a wrong secret do the same work.
 *
 * @module features/api-keys/key-hash
 */
import { timingSafeEqual } from "../../crypto/compare.js";
import { hmacHex } from "../../crypto/digest.js";
import type { KeyParts } from "./key-format.js";

const LABEL = "authlib.api-key.hash-key.v1";
/** Compared against when the id is unknown: a hash no key has (64 hex characters like a real one). */
const DUMMY_HASH = "0".repeat(64);

async function hashUnder(secret: string, parts: KeyParts): Promise<string> {
  return hmacHex(await hmacHex(secret, LABEL), `${parts.id}.${parts.secret}`);
}

/** The stored hash of a new key: under the first (current) secret. */
export function hashKey(secrets: readonly string[], parts: KeyParts): Promise<string> {
  return hashUnder(secrets[0] as string, parts);
}

/**
 * True when `parts` hash to `stored` under one of `secrets`. `stored` `undefined` (no such id) does the
 * same work against a dummy and answers `false`.
 */
export async function keyMatches(secrets: readonly string[], parts: KeyParts, stored: string | undefined): Promise<boolean> {
  let match = false;
  for (const secret of secrets) {
    // Every secret is tried, even after a match: the work does not depend on which one matched.
    const equal = timingSafeEqual(await hashUnder(secret, parts), stored ?? DUMMY_HASH);
    match = match || equal;
  }
  return stored !== undefined && match;
}
