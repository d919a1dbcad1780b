/**
 * This instance's last reads of keys, within the revocation bound: with JWT sessions and
 * `revocation: "eventual"` (the default), a key read from the store is trusted for `session.revalidateAfter`
 * seconds (default 60), so a verification in that time reads nothing; with `revocation: "strict"` or database
 * sessions every verification reads the store. A revoke, rotation or suspension on this instance forgets the
 * key at once; other instances see it within the bound. The same bound as a revoked session's
 * (docs/sessions.md).
 *
 * Only keys that exist are kept (an unknown id is never remembered, so random ids cannot fill the cache),
 * at most {@link MAX_ENTRIES} per instance, the oldest read going first.
 *
 * @module features/api-keys/cache
 */
import type { ApiKeyRecord } from "../../types/api-keys.js";
import type { AuthConfig, SessionOptions } from "../../types/config.js";

const MAX_ENTRIES = 10_000;

/** A read of a key, and for an organization key the creator's role read with it (`null`: no longer a member). */
export interface CachedKey {
  record: ApiKeyRecord;
  role?: string | null;
  readAt: number;
}

const caches = new WeakMap<AuthConfig, Map<string, CachedKey>>();

function cacheOf(config: AuthConfig): Map<string, CachedKey> {
  let cache = caches.get(config);
  if (!cache) {
    cache = new Map();
    caches.set(config, cache);
  }
  return cache;
}

/** How long, in ms, this instance trusts a read (0: read every time). */
export function boundOf(session: Pick<SessionOptions, "strategy" | "revocation" | "revalidateAfter">): number {
  return session.strategy === "jwt" && session.revocation === "eventual" ? session.revalidateAfter * 1000 : 0;
}

/** The read of `id` still within `bound`, or `undefined`. */
export function cachedKey(config: AuthConfig, id: string, bound: number): CachedKey | undefined {
  if (bound <= 0) return undefined;
  const entry = cacheOf(config).get(id);
  if (entry && Date.now() - entry.readAt < bound) return entry;
  return undefined;
}

/** Keeps a read of a key (when reads are trusted at all). */
export function rememberKey(config: AuthConfig, entry: CachedKey, bound: number): void {
  if (bound <= 0) return;
  const cache = cacheOf(config);
  cache.delete(entry.record.id);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(entry.record.id, entry);
}

/** Forgets this instance's read of the key `id`. */
export function forgetKey(config: AuthConfig, id: string): void {
  caches.get(config)?.delete(id);
}

/** Forgets this instance's reads of every key `userId` created. */
export function forgetKeysOf(config: AuthConfig, userId: string): void {
  const cache = caches.get(config);
  if (!cache) return;
  for (const [id, entry] of cache) if (entry.record.userId === userId) cache.delete(id);
}
