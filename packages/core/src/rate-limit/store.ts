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

import type { RateLimitStore, RateLimitWindow } from "../types/rate-limit.js";

export type { RateLimitStore, RateLimitWindow };

/** Settings of {@link memoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** Most keys held at once. Default 100,000. See the store's eviction rule. */
  maxKeys?: number;
  /** The clock, in milliseconds since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/** A held window, with the weight class it is filed under. */
interface Entry extends RateLimitWindow {
  weight: number;
}

/**
 * The weight class of a window with `count` hits: ⌊log2 count⌋. A key with many hits (a locked account,
 * a client over its limit) is worth more than many keys with a few: to push it out, a flood needs keys
 * of at least its class, i.e. about as many hits per key as the victim has.
 */
function weightOf(count: number): number {
  return Math.min(Math.floor(Math.log2(count)), 52);
}

/** The least often the full store sweeps all its ended windows (each sweep reads every key). */
const SWEEP_INTERVAL_MS = 1000;

/**
 * Counters in this process's memory: right for one instance, useless across several (use the PostgreSQL
 * or Redis store there).
 *
 * Bounded, and never refuses because it is full: a new key always gets a window. To make room it drops,
 * in this order, ended windows (all of them, at most once a second; in between, the ended ones it meets
 * first), then the least recently used window of the lightest weight class (hits, in powers of two). So
 * flooding the store with fresh keys only displaces other keys as quiet as the flood's, and a lockout is
 * never dropped before its window ends while the store holds lighter windows.
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new RangeError(`maxKeys must be a whole number of at least 1, got ${maxKeys}`);
  const now = options.now ?? Date.now;
  const windows = new Map<string, Entry>();
  // One map per weight class, each in least-recently-used-first order (Map keeps insertion order).
  const classes: Array<Map<string, Entry>> = [];
  let lastSweep = Number.NEGATIVE_INFINITY;

  const file = (key: string, entry: Entry) => {
    classes[entry.weight]?.delete(key);
    entry.weight = weightOf(entry.count);
    let bucket = classes[entry.weight];
    if (!bucket) {
      bucket = new Map();
      classes[entry.weight] = bucket;
    }
    bucket.set(key, entry);
  };

  const drop = (key: string, entry: Entry) => {
    windows.delete(key);
    // Stryker disable next-line OptionalChaining: equivalent, every entry in `windows` was filed, so its class's map exists (the `?.` is for the index type)
    classes[entry.weight]?.delete(key);
  };

  const live = (key: string): Entry | null => {
    const entry = windows.get(key);
    if (!entry) return null;
    if (entry.resetAt > now()) return entry;
    drop(key, entry);
    return null;
  };

  /** Frees one place (see the eviction rule above). */
  const makeRoom = () => {
    const time = now();
    if (time - lastSweep >= SWEEP_INTERVAL_MS) {
      lastSweep = time;
      for (const [key, entry] of windows) if (entry.resetAt <= time) drop(key, entry);
      if (windows.size < maxKeys) return;
    }
    // The least recently used window of each class, lightest first; an ended one goes before any live one.
    const heads: Array<[string, Entry]> = [];
    for (const bucket of classes) {
      // Stryker disable next-line OptionalChaining: equivalent, `classes` has no holes: a count grows by one from 1, so a key is filed in every class below its own (weightOf is the whole log2)
      const head = bucket?.entries().next().value;
      if (head) heads.push(head);
    }
    const [key, entry] = heads.find(([, candidate]) => candidate.resetAt <= time) ?? (heads[0] as [string, Entry]);
    drop(key, entry);
  };

  return {
    async increment(key, windowMs) {
      const current = live(key);
      if (current) {
        current.count += 1;
        file(key, current);
        return { count: current.count, resetAt: current.resetAt };
      }
      if (windows.size >= maxKeys) makeRoom();
      const opened: Entry = { count: 1, resetAt: now() + windowMs, weight: 0 };
      windows.set(key, opened);
      file(key, opened);
      return { count: 1, resetAt: opened.resetAt };
    },
    async get(key) {
      const current = live(key);
      if (!current) return null;
      // Being read (a refused attempt checks its lockout) is being used.
      file(key, current);
      return { count: current.count, resetAt: current.resetAt };
    },
    async reset(key) {
      const entry = windows.get(key);
      if (entry) drop(key, entry);
    },
  };
}
