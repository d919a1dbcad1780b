/**
 * A fixed-window rate limit on verification mails per address, so a sign-in form cannot be used to flood
 * an inbox. The default store is in memory (per process); pass a shared store when running several
 * instances.
 */

/** Counts hits per key within a window. */
export interface RateLimitStore {
  /** Records a hit for `key` and returns how many hits it has in the current window (this one included). */
  hit(key: string, windowSeconds: number): Promise<number> | number;
}

/** Rate limit settings of an email provider. `false` switches the limit off. */
export interface EmailRateLimit {
  /** Mails per address per window. Default 5. */
  max?: number;
  /** Window length in seconds. Default 900 (15 minutes). */
  windowSeconds?: number;
  store?: RateLimitStore;
}

const MAX_KEYS = 10_000;

/** An in-memory store, bounded: the oldest windows are dropped first when it is full. */
export function memoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, windowSeconds) {
      const now = Date.now();
      const current = windows.get(key);
      if (current && now - current.start < windowSeconds * 1000) {
        current.count += 1;
        return current.count;
      }
      windows.delete(key);
      if (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value as string);
      windows.set(key, { start: now, count: 1 });
      return 1;
    },
  };
}

const defaultStore = memoryRateLimitStore();

/** True when `identifier` may get one more mail now. */
export async function allowVerificationMail(identifier: string, limit: EmailRateLimit | false | undefined): Promise<boolean> {
  if (limit === false) return true;
  const { max = 5, windowSeconds = 900, store = defaultStore } = limit ?? {};
  return (await store.hit(`email:${identifier}`, windowSeconds)) <= max;
}
