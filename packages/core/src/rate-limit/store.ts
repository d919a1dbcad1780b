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

/** A key's window as the store holds it. */
export interface RateLimitWindow {
  /** Hits counted in this window, the current one included. */
  count: number;
  /** When the window ends, in milliseconds since the epoch. */
  resetAt: number;
}

/** Counters shared by every instance that should enforce the same limits. */
export interface RateLimitStore {
  /**
   * Adds one hit to `key` atomically (two instances hitting the same key at once count two) and returns
   * the window after the hit. Opens a new window of `windowMs` when none is live.
   */
  increment(key: string, windowMs: number): Promise<RateLimitWindow>;
  /** The live window of `key`, or `null` when it has none (never hit, or its window has ended). */
  get(key: string): Promise<RateLimitWindow | null>;
  /** Forgets `key` (e.g. the failure count of an account after a successful sign-in). */
  reset(key: string): Promise<void>;
  /**
   * Takes the lease `key` for `ttlMs` unless a live one is held, atomically across every instance that
   * shares the store: of any number of concurrent calls, one gets a token. Resolves the holder's token,
   * or `null` when someone holds the lease. A lease ends at {@link RateLimitStore.release} or after `ttlMs`.
   *
   * Optional, with `release`: authlib uses the pair so that one instance at a time spends a provider's
   * refresh token (session/refresh.ts). The PostgreSQL and Redis stores have it; a store without it (the
   * memory store) leaves that coordination to each process.
   */
  lease?(key: string, ttlMs: number): Promise<string | null>;
  /** Ends the lease `key` if `token` still holds it; a lease that ended and was taken by another is left alone. */
  release?(key: string, token: string): Promise<void>;
}

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
