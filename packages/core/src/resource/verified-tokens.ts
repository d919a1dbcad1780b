/**
 * The access tokens whose signature was verified lately, by key set: a client sends the same token on
 * each request until it expires, and verifying an ES256 signature is most of what a check costs. A token
 * found here is the very string verified before, under the same key set; its claims (issuer, audience,
 * times) are checked again on every request. A key removed from the issuer's set still verifies the tokens
 * kept here until they expire (minutes); a revoked grant is not (the revocation check runs every time).
 *
 * @module resource/verified-tokens
 */
import type { JWTPayload, JWTVerifyGetKey } from "jose";

/** How many tokens are kept per key set; the oldest is forgotten first. */
const MAX_TOKENS = 1000;

const byKeySet = new WeakMap<JWTVerifyGetKey, Map<string, JWTPayload>>();

/** The payload of `token` if its signature was verified with `keys`. */
export function verifiedPayload(keys: JWTVerifyGetKey, token: string): JWTPayload | undefined {
  return byKeySet.get(keys)?.get(token);
}

/**
 * Keeps `token`'s payload as verified with `keys`. The payload is frozen (its `aud` array too): the callers
 * share it as `claims`, and a change by one must not reach the next request's checks.
 */
export function keepVerified(keys: JWTVerifyGetKey, token: string, payload: JWTPayload): void {
  if (Array.isArray(payload.aud)) Object.freeze(payload.aud);
  Object.freeze(payload);
  let tokens = byKeySet.get(keys);
  if (tokens === undefined) {
    tokens = new Map();
    byKeySet.set(keys, tokens);
  }
  tokens.set(token, payload);
  if (tokens.size > MAX_TOKENS) tokens.delete(tokens.keys().next().value as string);
}
