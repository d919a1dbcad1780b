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
 * The held windows, each filed under its weight class, and the eviction rule that makes room among them
 * (see {@link memoryRateLimitStore}).
 */
class WeightedWindows {
  readonly #windows = new Map<string, Entry>();
  // One map per weight class, each in least-recently-used-first order (Map keeps insertion order).
  readonly #classes: Array<Map<string, Entry>> = [];
  #lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    readonly maxKeys: number,
    readonly now: () => number,
  ) {}

  get size(): number {
    return this.#windows.size;
  }

  /** The window of `key`, or its entry dropped and null once it has ended. */
  live(key: string): Entry | null {
    const entry = this.#windows.get(key);
    if (!entry) return null;
    if (entry.resetAt > this.now()) return entry;
    this.drop(key, entry);
    return null;
  }

  /** The entry of `key` as held, ended or not. */
  held(key: string): Entry | undefined {
    return this.#windows.get(key);
  }

  /** Holds a new window for `key`. */
  open(key: string, entry: Entry): void {
    this.#windows.set(key, entry);
    this.file(key, entry);
  }

  /** Files `entry` under its (new) weight class, as the most recently used there. */
  file(key: string, entry: Entry): void {
    this.#classes[entry.weight]?.delete(key);
    entry.weight = weightOf(entry.count);
    let bucket = this.#classes[entry.weight];
    if (!bucket) {
      bucket = new Map();
      this.#classes[entry.weight] = bucket;
    }
    bucket.set(key, entry);
  }

  drop(key: string, entry: Entry): void {
    this.#windows.delete(key);
    // Stryker disable next-line OptionalChaining: equivalent (see mutation notes: weighted-windows-drop)
    this.#classes[entry.weight]?.delete(key);
  }

  /** Frees one place (see the eviction rule of {@link memoryRateLimitStore}). */
  makeRoom(): void {
    const time = this.now();
    if (time - this.#lastSweep >= SWEEP_INTERVAL_MS) {
      this.#lastSweep = time;
      for (const [key, entry] of this.#windows) if (entry.resetAt <= time) this.drop(key, entry);
      if (this.#windows.size < this.maxKeys) return;
    }
    // The least recently used window of each class, lightest first; an ended one goes before any live one.
    const heads: Array<[string, Entry]> = [];
    for (const bucket of this.#classes) {
      const head = bucket?.entries().next().value;
      if (head) heads.push(head);
    }
    const [key, entry] = heads.find(([, candidate]) => candidate.resetAt <= time) ?? (heads[0] as [string, Entry]);
    this.drop(key, entry);
  }
}

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
  const windows = new WeightedWindows(maxKeys, now);

  return {
    async increment(key, windowMs) {
      const current = windows.live(key);
      if (current) {
        current.count += 1;
        windows.file(key, current);
        return { count: current.count, resetAt: current.resetAt };
      }
      if (windows.size >= maxKeys) windows.makeRoom();
      const opened: Entry = { count: 1, resetAt: now() + windowMs, weight: 0 };
      windows.open(key, opened);
      return { count: 1, resetAt: opened.resetAt };
    },
    async get(key) {
      const current = windows.live(key);
      if (!current) return null;
      // Being read (a refused attempt checks its lockout) is being used.
      windows.file(key, current);
      return { count: current.count, resetAt: current.resetAt };
    },
    async reset(key) {
      const entry = windows.held(key);
      if (entry) windows.drop(key, entry);
    },
  };
}
