/**
 * How an API key is stored: the shared keyed hash of bearer keys (`crypto/key-hash.ts`) under the API keys'
 * own label, so an API key's hash never verifies a key of another kind (a SCIM token).
 *
 * @module features/api-keys/key-hash
 */
import { keyHashing } from "../../crypto/key-hash.js";

const hashing = keyHashing("authlib.api-key.hash-key.v1");

/** The stored hash of a new key: under the first (current) secret. */
export const hashKey = hashing.hashKey;

/**
 * True when `parts` hash to `stored` under one of `secrets`. `stored` `undefined` (no such id) does the
 * same work against a dummy and answers `false`.
 */
export const keyMatches = hashing.keyMatches;
