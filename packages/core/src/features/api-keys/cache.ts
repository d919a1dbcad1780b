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
import type { SessionOptions } from "../../types/config.js";
import type { InstanceState } from "../../types/internal.js";

const MAX_ENTRIES = 10_000;

/** A read of a key, and for an organization key the creator's role read with it (`null`: no longer a member). */
export interface CachedKey {
  record: ApiKeyRecord;
  role?: string | null;
  readAt: number;
}

/** What this instance keeps of keys: its reads, and when it last wrote each key's `lastUsedAt`. */
export interface ApiKeyMemory {
  reads: Map<string, CachedKey>;
  touched: Map<string, number>;
}

declare module "../../types/internal.js" {
  interface InstanceState {
    /** API keys (`features/api-keys/cache.ts`): this instance's reads and `lastUsedAt` writes. */
    apiKeys?: ApiKeyMemory;
  }
}

/** The instance's key memory, made on first use (one per instance, shared by its requests). */
export function keyMemoryOf(state: InstanceState): ApiKeyMemory {
  state.apiKeys ??= { reads: new Map(), touched: new Map() };
  return state.apiKeys;
}

function cacheOf(state: InstanceState): Map<string, CachedKey> {
  return keyMemoryOf(state).reads;
}

/** How long, in ms, this instance trusts a read (0: read every time). */
export function boundOf(session: Pick<SessionOptions, "strategy" | "revocation" | "revalidateAfter">): number {
  return session.strategy === "jwt" && session.revocation === "eventual" ? session.revalidateAfter * 1000 : 0;
}

/** The read of `id` still within `bound`, or `undefined`. */
export function cachedKey(state: InstanceState, id: string, bound: number): CachedKey | undefined {
  if (bound <= 0) return undefined;
  const entry = cacheOf(state).get(id);
  if (entry && Date.now() - entry.readAt < bound) return entry;
  return undefined;
}

/** Keeps a read of a key (when reads are trusted at all). */
export function rememberKey(state: InstanceState, entry: CachedKey, bound: number): void {
  if (bound <= 0) return;
  const cache = cacheOf(state);
  cache.delete(entry.record.id);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(entry.record.id, entry);
}

/** Forgets this instance's read of the key `id`. */
export function forgetKey(state: InstanceState, id: string): void {
  state.apiKeys?.reads.delete(id);
}

/** Forgets this instance's reads of every key `userId` created. */
export function forgetKeysOf(state: InstanceState, userId: string): void {
  const cache = state.apiKeys?.reads;
  if (!cache) return;
  for (const [id, entry] of cache) if (entry.record.userId === userId) cache.delete(id);
}
