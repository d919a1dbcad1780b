/**
 * How a bearer key authlib issues is stored (API keys, SCIM tokens): HMAC-SHA256 (hex) of its public id and
 * secret, under a key derived from the auth secret and a label of its kind (`HMAC(secret, label)`), so a
 * copy of the database alone cannot check a guessed key, the hash of one app's key means nothing in
 * another's, and a key of one kind never verifies as another. The derived key is used, never the auth
 * secret itself, so the hash cannot be confused with any other MAC authlib makes with the secret.
 *
 * A verification computes the hash under every secret of the rotation list and compares each in constant
 * time (`crypto/compare.ts`): against the stored hash when the id is known, against a dummy of the same
 * length when it is not, so an unknown id and a known id with a wrong secret do the same work.
 *
 * @module crypto/key-hash
 */
import { timingSafeEqual } from "./compare.js";
import { hmacHex } from "./digest.js";
import type { KeyParts } from "./key-format.js";

/** Compared against when the id is unknown: a hash no key has (64 hex characters like a real one). */
const DUMMY_HASH = "0".repeat(64);

/** The hashing of one kind of key, bound to its label. */
export interface KeyHashing {
  /** The stored hash of a new key: under the first (current) secret. */
  hashKey(secrets: readonly string[], parts: KeyParts): Promise<string>;
  /**
   * True when `parts` hash to `stored` under one of `secrets`. `stored` `undefined` (no such id) does the
   * same work against a dummy and answers `false`.
   */
  keyMatches(secrets: readonly string[], parts: KeyParts, stored: string | undefined): Promise<boolean>;
}

/** The hashing of the keys labelled `label` (`"authlib.api-key.hash-key.v1"`). */
export function keyHashing(label: string): KeyHashing {
  const hashUnder = async (secret: string, parts: KeyParts) => hmacHex(await hmacHex(secret, label), `${parts.id}.${parts.secret}`);
  return {
    hashKey: (secrets, parts) => hashUnder(secrets[0] as string, parts),
    async keyMatches(secrets, parts, stored) {
      let match = false;
      for (const secret of secrets) {
        // Every secret is tried, even after a match: the work does not depend on which one matched.
        const equal = timingSafeEqual(await hashUnder(secret, parts), stored ?? DUMMY_HASH);
        match = match || equal;
      }
      return stored !== undefined && match;
    },
  };
}
