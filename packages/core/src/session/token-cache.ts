/**
 * A bounded cache of decoded session tokens, so that a browser checking its session again does not pay
 * for decrypting the same cookie again (issue 15). Only what decryption proves is cached: the `jwt` and
 * `session` callbacks still run on every read.
 *
 * Why it is safe:
 * - an entry is served only for the exact cookie value it was decoded from, read under the same name (the
 *   salt): a tampered, truncated or foreign token is not that value, so it is decoded (and refused) like
 *   any other. Entries are found by the token's last characters (its MAC tag) and then compared whole:
 *   hashing a whole 500-character cookie per request cost more than the rest of the lookup;
 * - only successful decodes are stored; failures are never remembered;
 * - an entry is served only before its `exp` (then it is dropped and the token decoded again, which
 *   refuses it);
 * - the cache belongs to one secret set: it is found from the configuration's secret array, and emptied
 *   when the secrets in it change;
 * - callers get a fresh copy each time: a callback that edits the token in place cannot change what the
 *   next request reads.
 *
 * @module session/token-cache
 */

import type { JWT } from "../jwt.js";
import type { DecodedTokenCache, InternalOptions } from "../types/internal.js";
import { copyJson } from "./json-shape.js";

/** How many decoded tokens one secret set keeps (least recently used first out). */
export const TOKEN_CACHE_MAX_ENTRIES = 1000;
/** Tokens longer than this (a chunked cookie of several KB) are not cached: they would crowd out the rest. */
const MAX_CACHED_TOKEN_LENGTH = 8 * 1024;

/** How many trailing characters of a token find its entry (a JWE ends with its tag: 43 characters for CBC). */
const BUCKET_CHARS = 32;

interface Entry {
  /** The whole token: an entry is served only for exactly this value. */
  token: string;
  /** The cookie name the token was decoded under (its key derivation's salt). */
  salt: string;
  /** The payload as decoded; never handed out (see {@link TokenCache.get}). */
  payload: JWT;
  /** `exp` in milliseconds, or Infinity for a token without one (a custom encoder's). */
  expiresAt: number;
}

/** Decoded tokens of one secret set: one per instance (`options.instanceState.tokenCache`). */
export class TokenCache implements DecodedTokenCache {
  private readonly entries = new Map<string, Entry>();
  /** A copy of the secret set the entries were decoded under. */
  private secrets: string[];
  constructor(secrets: readonly string[]) {
    this.secrets = [...secrets];
  }

  /** Empties the cache when `secrets` (the configured secret set) is not the one it was filled under. */
  useSecrets(secrets: readonly string[]): void {
    if (secrets.length === this.secrets.length && secrets.every((secret, i) => secret === this.secrets[i])) return;
    this.entries.clear();
    this.secrets = [...secrets];
  }

  /** The stored payload of `token` read under `salt`, if any and not expired. Not a copy: do not hand it out. */
  get(salt: string, token: string, now: number): JWT | undefined {
    const bucket = bucketOf(token);
    const entry = this.entries.get(bucket);
    // Another token with the same last characters (a forged one with a copied tag) is not this entry.
    if (!entry || entry.token !== token || entry.salt !== salt) return undefined;
    this.entries.delete(bucket);
    if (entry.expiresAt <= now) return undefined;
    // Re-inserted: Map order is the recency order.
    this.entries.set(bucket, entry);
    return entry.payload;
  }

  /** Remembers `payload` (already a private copy) as the decoding of `token` under `salt`. */
  set(salt: string, token: string, payload: JWT): void {
    if (token.length > MAX_CACHED_TOKEN_LENGTH) return;
    const expiresAt = typeof payload.exp === "number" ? payload.exp * 1000 : Number.POSITIVE_INFINITY;
    const bucket = bucketOf(token);
    // A successful decode replaces whatever the bucket held (two genuine tokens ending alike: the newer wins).
    this.entries.delete(bucket);
    if (this.entries.size >= TOKEN_CACHE_MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(bucket, { token, salt, payload, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}

function bucketOf(token: string): string {
  return token.length > BUCKET_CHARS ? token.slice(-BUCKET_CHARS) : token;
}

/** The token cache of the instance whose request this is, made by its first session check. */
export function tokenCacheOf(options: Pick<InternalOptions, "instanceState" | "jwt">): DecodedTokenCache {
  options.instanceState.tokenCache ??= new TokenCache(options.jwt.secret);
  return options.instanceState.tokenCache;
}

/**
 * Decodes `token` with `decode`, through `cache` (emptied first when `secrets` changed). Returns the payload to work on (the
 * caller's to change) and `pristine`, an untouched copy of it for change detection (`undefined` when
 * the payload cannot be copied: too large or cyclic; such a payload is not cached).
 */
export async function decodeCached(
  cache: DecodedTokenCache,
  secrets: readonly string[],
  salt: string,
  token: string,
  decode: () => JWT | null | PromiseLike<JWT | null>,
): Promise<{ payload: JWT; pristine: unknown } | null> {
  // Compared element by element: the secret set may have been changed in place since the cache was filled.
  cache.useSecrets(secrets);
  const cached = cache.get(salt, token, Date.now());
  if (cached) return { payload: copyJson(cached) as JWT, pristine: cached };
  const payload = await decode();
  if (!payload || typeof payload !== "object") return payload ? { payload, pristine: copyJson(payload) } : null;
  const pristine = copyJson(payload);
  if (pristine !== undefined) cache.set(salt, token, pristine as JWT);
  return { payload, pristine };
}
