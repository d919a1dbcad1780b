/**
 * Where rate-limit counters live. One small contract, three implementations: memory (one instance, this
 * module), PostgreSQL (`@authlib/hosted-db-adapter`) and Redis (`@authlib/core/rate-limit/redis`). Limits
 * hold across instances only when every instance shares the same store.
 *
 * A counter is a fixed window: the first hit on a key opens a window of `windowMs`; later hits in it add
 * one; once it has ended, the next hit opens a new window with a count of 1.
 *
 * @module rate-limit/store
 */

import type { RateLimitStore, RateLimitWindow } from "../rate-limit-types.js";

export type { RateLimitStore, RateLimitWindow };

/** Settings of {@link memoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** Most keys held at once. Default 100,000. See the store's eviction rule. */
  maxKeys?: number;
  /** The clock, in milliseconds since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * Counters in this process's memory: right for one instance, useless across several (use the PostgreSQL
 * or Redis store there).
 *
 * Bounded: when full, it drops ended windows first, then a live window with a single hit (as quiet as the
 * new key, so at most one hit of history is lost). A key with more hits, and so every key over a limit, is
 * never dropped: flooding the store with fresh keys cannot reset a victim's count. When nothing can be
 * dropped, the new key fails closed: its hit is answered as over every limit (count `Infinity`) and not
 * kept, until windows end and make room.
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, RateLimitWindow>();

  const live = (key: string): RateLimitWindow | null => {
    const window = windows.get(key);
    if (!window) return null;
    if (window.resetAt > now()) return window;
    windows.delete(key);
    return null;
  };

  /** Makes room for one key; false when every held key is live and has more than one hit. */
  const makeRoom = (): boolean => {
    const time = now();
    for (const [key, window] of windows) if (window.resetAt <= time) windows.delete(key);
    if (windows.size < maxKeys) return true;
    for (const [key, window] of windows) {
      if (window.count <= 1) {
        windows.delete(key);
        return true;
      }
    }
    return false;
  };

  return {
    async increment(key, windowMs) {
      const current = live(key);
      if (current) {
        current.count += 1;
        return { ...current };
      }
      const opened = { count: 1, resetAt: now() + windowMs };
      if (windows.size >= maxKeys && !makeRoom()) return { count: Number.POSITIVE_INFINITY, resetAt: opened.resetAt };
      windows.set(key, opened);
      return { ...opened };
    },
    async get(key) {
      const current = live(key);
      return current ? { ...current } : null;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
