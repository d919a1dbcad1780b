/**
 * The conformance suite of `RateLimitStore`: the contract every store (memory, PostgreSQL, Redis) keeps,
 * as vitest tests. A store runs it by giving two store objects over the same storage, as two instances
 * of an application would have (two pools, two Redis connections; the memory store gives itself twice).
 *
 * Every test uses fresh random keys, so tests are independent and may share one database. Nothing
 * asserts on elapsed time: window ends are checked against the resetAt the store returned, and a window
 * is awaited by polling `get` until it has ended.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateLimitStore, RateLimitWindow } from "../../src/rate-limit/store.js";

type Awaitable<T> = T | PromiseLike<T>;

/** Two store objects over the same storage. */
export interface RateLimitStorePair {
  first: RateLimitStore;
  second: RateLimitStore;
}

/** Inputs of {@link runRateLimitStoreSuite}. */
export interface RateLimitStoreSuiteOptions {
  /** Names the `describe` block, e.g. "hostedDbRateLimitStore on PostgreSQL". */
  name: string;
  /** Runs before the first test (connect, migrate). */
  setup?: () => Awaitable<void>;
  /** The stores under test; called after `setup`. */
  stores: () => RateLimitStorePair;
  /** Runs after the last test (delete what the tests wrote, disconnect). */
  teardown?: () => Awaitable<void>;
}

/** A window short enough to wait for. */
const SHORT_WINDOW_MS = 300;
/** A window no test outlives. */
const LONG_WINDOW_MS = 10 * 60_000;
/** Hits of the concurrency test. */
const CONCURRENT_HITS = 200;

/** A key no other test (or run) uses. */
export function freshKey(label = "key"): string {
  return `${label}:${randomUUID()}`;
}

/**
 * Polls `get(key)` until the window has ended (returns null). Gives up, failing the test, only when the
 * window outlives its own resetAt by far: a hang guard, not a timing assertion.
 */
export async function waitForWindowEnd(store: RateLimitStore, key: string, window: RateLimitWindow): Promise<void> {
  const giveUpAt = window.resetAt + 20_000;
  while ((await store.get(key)) !== null) {
    if (Date.now() > giveUpAt) throw new Error(`The window of ${key} did not end (resetAt ${window.resetAt}).`);
    await sleep(Math.max(10, Math.min(100, window.resetAt - Date.now())));
  }
}

/** Registers the conformance tests of one store. */
export function runRateLimitStoreSuite(options: RateLimitStoreSuiteOptions): void {
  describe(options.name, () => {
    let first: RateLimitStore;
    let second: RateLimitStore;

    beforeAll(async () => {
      await options.setup?.();
      ({ first, second } = options.stores());
    });

    afterAll(async () => {
      await options.teardown?.();
    });

    it("opens a window of windowMs on the first hit; later hits count up and keep its end", async () => {
      const key = freshKey();
      const before = Date.now();
      const opened = await first.increment(key, LONG_WINDOW_MS);
      const after = Date.now();
      expect(opened.count).toBe(1);
      // The store's clock may be a server's, but on these machines it is the same clock as ours.
      expect(opened.resetAt).toBeGreaterThanOrEqual(before + LONG_WINDOW_MS - 1);
      expect(opened.resetAt).toBeLessThanOrEqual(after + LONG_WINDOW_MS + 1);

      expect(await first.increment(key, LONG_WINDOW_MS)).toEqual({ count: 2, resetAt: opened.resetAt });
      // A different windowMs on a live window changes nothing about its end.
      expect(await second.increment(key, 1_000)).toEqual({ count: 3, resetAt: opened.resetAt });
      expect(await second.get(key)).toEqual({ count: 3, resetAt: opened.resetAt });
    });

    it("get does not count, and is null for a key never hit", async () => {
      const key = freshKey();
      expect(await first.get(key)).toBeNull();
      const opened = await first.increment(key, LONG_WINDOW_MS);
      for (let i = 0; i < 3; i++) expect(await second.get(key)).toEqual(opened);
      expect(await first.increment(key, LONG_WINDOW_MS)).toEqual({ count: 2, resetAt: opened.resetAt });
    });

    it("ends a window at resetAt: get turns null, and the next hit opens a new window counting from 1", async () => {
      const key = freshKey();
      await first.increment(key, SHORT_WINDOW_MS);
      const ended = await second.increment(key, SHORT_WINDOW_MS);
      expect(ended.count).toBe(2);
      await waitForWindowEnd(first, key, ended);

      const reopened = await second.increment(key, SHORT_WINDOW_MS);
      expect(reopened.count).toBe(1);
      // The new window starts no earlier than the old one ended.
      expect(reopened.resetAt).toBeGreaterThanOrEqual(ended.resetAt + SHORT_WINDOW_MS - 1);
      expect(await first.increment(key, SHORT_WINDOW_MS)).toEqual({ count: 2, resetAt: reopened.resetAt });
    });

    it("reset forgets a key: get is null and the next hit counts from 1; resetting an unknown key is fine", async () => {
      const key = freshKey();
      for (let i = 0; i < 3; i++) await first.increment(key, LONG_WINDOW_MS);
      await second.reset(key);
      expect(await first.get(key)).toBeNull();
      expect((await first.increment(key, LONG_WINDOW_MS)).count).toBe(1);
      await expect(first.reset(freshKey("never-hit"))).resolves.toBeUndefined();
    });

    it("keeps keys independent", async () => {
      const [a, b] = [freshKey("a"), freshKey("b")];
      await first.increment(a, LONG_WINDOW_MS);
      await second.increment(a, LONG_WINDOW_MS);
      await first.increment(b, LONG_WINDOW_MS);
      expect((await second.get(a))?.count).toBe(2);
      expect((await second.get(b))?.count).toBe(1);
      await first.reset(a);
      expect(await second.get(a)).toBeNull();
      expect((await second.get(b))?.count).toBe(1);
    });

    it("keeps keys apart whatever they contain: unicode, NUL, very long, digest-like", async () => {
      const base = randomUUID();
      const long = `${base}:${"x".repeat(10_000)}`;
      const keys = [
        `${base}:üñí©ødé 🔑`,
        `${base}:with\0nul`,
        `${base}:with`,
        long,
        `${long}y`,
        `#sha256:${base}`,
        `${base}:${"é".repeat(300)}`,
      ];
      for (const [index, key] of keys.entries()) {
        for (let hit = 0; hit <= index; hit++) await first.increment(key, LONG_WINDOW_MS);
      }
      for (const [index, key] of keys.entries()) expect((await second.get(key))?.count, JSON.stringify(key.slice(0, 60))).toBe(index + 1);
      await second.reset(long);
      expect(await first.get(long)).toBeNull();
      expect((await first.get(`${long}y`))?.count).toBe(5);
    });

    it(`counts ${CONCURRENT_HITS} concurrent hits on one key from both stores exactly once each (1..${CONCURRENT_HITS})`, async () => {
      const key = freshKey("concurrent");
      const windows = await Promise.all(
        Array.from({ length: CONCURRENT_HITS }, (_, i) => (i % 2 === 0 ? first : second).increment(key, LONG_WINDOW_MS)),
      );
      const counts = windows.map((window) => window.count).sort((x, y) => x - y);
      expect(counts).toEqual(Array.from({ length: CONCURRENT_HITS }, (_, i) => i + 1));
      expect(new Set(windows.map((window) => window.resetAt)).size).toBe(1);
      expect(await first.get(key)).toEqual({ count: CONCURRENT_HITS, resetAt: windows[0]?.resetAt });
    });
  });
}
