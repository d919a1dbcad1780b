/**
 * The refresh lease's rules (session/refresh-lease.ts), on the real Redis store: the holder refreshes and
 * releases; an instance that finds the lease held waits and does not refresh once the row shows the
 * holder's work; it takes the lease itself when the holder gave up without refreshing; a store that
 * fails is logged and the refresh goes on without the lease; a lease that never ends is an
 * `OAuthCallbackError`, not a hang. Which store leases: only a `rateLimit.store` with both methods. The
 * same rules across two processes: refresh-lease-instances.test.ts. Skipped, saying why, without Redis.
 */
import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdapterError, OAuthCallbackError } from "../../src/errors.js";
import { redisRateLimitStore } from "../../src/rate-limit/redis.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { type LeaseStore, refreshLeaseStore, underRefreshLease } from "../../src/session/refresh-lease.js";
import type { InternalOptions } from "../../src/types/internal.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

const available = await redisAnswers("the refresh lease rules on Redis");
const prefix = `authlib-refresh-lease-rules-${randomUUID()}:`;

function logger() {
  const errors: Error[] = [];
  return { errors, options: { logger: { error: (e: Error) => errors.push(e), warn: () => {}, debug: () => {} } } };
}

describe("which store leases", () => {
  it("only a configured rateLimit.store with lease and release", () => {
    const none = { rateLimits: { config: undefined } } as Pick<InternalOptions, "rateLimits">;
    const off = { rateLimits: { config: false as const } } as Pick<InternalOptions, "rateLimits">;
    const memory = { rateLimits: { config: { store: memoryRateLimitStore() } } } as Pick<InternalOptions, "rateLimits">;
    const client = { evalSha: async () => 1, eval: async () => 1, del: async () => 0 };
    const redis = redisRateLimitStore({ client });
    const leasing = { rateLimits: { config: { store: redis } } } as Pick<InternalOptions, "rateLimits">;
    expect(refreshLeaseStore(none)).toBeUndefined();
    expect(refreshLeaseStore(off)).toBeUndefined();
    expect(refreshLeaseStore(memory)).toBeUndefined();
    expect(refreshLeaseStore(leasing)).toBe(redis);
    // Both methods: a store that can take a lease but not give it back (or the reverse) does not lease.
    const leaseOnly = { rateLimits: { config: { store: { ...memoryRateLimitStore(), lease: redis.lease } } } };
    const releaseOnly = { rateLimits: { config: { store: { ...memoryRateLimitStore(), release: redis.release } } } };
    expect(refreshLeaseStore(leaseOnly as Pick<InternalOptions, "rateLimits">)).toBeUndefined();
    expect(refreshLeaseStore(releaseOnly as Pick<InternalOptions, "rateLimits">)).toBeUndefined();
  });
});

// A short test timeout: a wait that does not end fails here in seconds.
describe.skipIf(!available)("underRefreshLease on Redis", { timeout: 3_000 }, () => {
  let client: RedisClientType;
  let store: LeaseStore;
  beforeAll(async () => {
    client = await createClient({ url: redisURL }).connect();
    store = redisRateLimitStore({ client, prefix }) as LeaseStore;
  });
  afterAll(async () => {
    for (const key of await client.keys(`${prefix}*`)) await client.del(key);
    await client.quit();
  });

  it("a free lease: refreshes once, then releases it", async () => {
    const key = `authlib:lease:refresh:${randomUUID()}`;
    const { options, errors } = logger();
    let refreshes = 0;
    await underRefreshLease(options, store, key, {
      refresh: async () => {
        refreshes++;
        expect(await store.lease(key, 60_000)).toBeNull(); // held while refreshing
      },
      settled: async () => false,
    });
    expect(refreshes).toBe(1);
    expect(await store.lease(key, 60_000)).not.toBeNull(); // released
    expect(errors).toEqual([]);
  });

  it("a held lease: waits, and does not refresh once the row shows the holder's refresh", async () => {
    const key = `authlib:lease:refresh:${randomUUID()}`;
    const holder = (await store.lease(key, 60_000)) as string;
    let refreshed = false;
    let reads = 0;
    setTimeout(() => {
      refreshed = true; // the holder stored its tokens
    }, 100);
    const { options } = logger();
    let refreshes = 0;
    await underRefreshLease(options, store, key, {
      refresh: async () => void refreshes++,
      settled: async () => {
        reads++;
        return refreshed;
      },
    });
    expect(refreshes).toBe(0);
    expect(reads).toBeGreaterThan(1);
    // The holder's lease is untouched: only its token releases it.
    expect(await store.lease(key, 60_000)).toBeNull();
    await store.release(key, holder);
  });

  it("a waiting instance re-reads the row after 20 ms, then after pauses that double", async () => {
    const key = `authlib:lease:refresh:${randomUUID()}`;
    const holder = (await store.lease(key, 60_000)) as string;
    const reads: number[] = [];
    const { options } = logger();
    const started = Date.now();
    await underRefreshLease(options, store, key, {
      refresh: async () => {
        throw new Error("the lease is held: no refresh");
      },
      settled: async () => reads.push(Date.now()) === 4,
    });
    const gaps = reads.map((at, i) => at - (reads[i - 1] ?? started));
    // Timers never fire early (1 ms of rounding allowed); under load they fire late, hence the wide upper bounds.
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[1]).toBeGreaterThanOrEqual(39);
    expect(gaps[2]).toBeGreaterThanOrEqual(79);
    expect(gaps[3]).toBeGreaterThanOrEqual(159);
    expect(gaps[0]).toBeLessThan(150);
    expect(gaps[1]).toBeLessThan(200);
    await store.release(key, holder);
  });

  it("a release that fails is logged as AdapterError, and the refresh's outcome stands", async () => {
    const own: RedisClientType = await createClient({ url: redisURL }).connect();
    const closing = redisRateLimitStore({ client: own, prefix }) as LeaseStore;
    const { options, errors } = logger();
    let refreshes = 0;
    await underRefreshLease(options, closing, `authlib:lease:refresh:${randomUUID()}`, {
      refresh: async () => {
        refreshes++;
        await own.quit(); // the store goes away while the lease is held
      },
      settled: async () => false,
    });
    expect(refreshes).toBe(1);
    expect(errors.map((e) => [e.constructor, e.message])).toEqual([[AdapterError, "The refresh lease could not be released."]]);
    expect((errors[0]?.cause as { err?: unknown } | undefined)?.err).toBeInstanceOf(Error); // the store's own error, for the operator
  });

  it("a holder that gives up without refreshing: the waiting instance takes the lease and refreshes", async () => {
    const key = `authlib:lease:refresh:${randomUUID()}`;
    const holder = (await store.lease(key, 60_000)) as string;
    setTimeout(() => void store.release(key, holder), 100);
    const { options } = logger();
    let refreshes = 0;
    await underRefreshLease(options, store, key, { refresh: async () => void refreshes++, settled: async () => false });
    expect(refreshes).toBe(1);
  });

  it("a lease held past its lifetime without a refresh is an OAuthCallbackError, not a wait without end", async () => {
    const key = `authlib:lease:refresh:${randomUUID()}`;
    await store.lease(key, 60_000);
    const { options } = logger();
    let refreshes = 0;
    const started = Date.now();
    const waiting = underRefreshLease(options, store, key, { refresh: async () => void refreshes++, settled: async () => false }, 200);
    await expect(waiting).rejects.toBeInstanceOf(OAuthCallbackError);
    await expect(waiting).rejects.toThrow("Another instance held the refresh lease past its lifetime; the access token was not refreshed.");
    // Not before the lease's lifetime has passed (the holder may still store its tokens), nor long after.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(refreshes).toBe(0);
  });

  it("a refresh that fails still releases the lease, and the failure reaches the caller", async () => {
    const key = `authlib:lease:refresh:${randomUUID()}`;
    const { options } = logger();
    const failure = new Error("invalid_grant");
    await expect(
      underRefreshLease(options, store, key, {
        refresh: async () => {
          throw failure;
        },
        settled: async () => false,
      }),
    ).rejects.toBe(failure);
    expect(await store.lease(key, 60_000)).not.toBeNull();
  });

  it("a store that fails (Redis connection closed) is logged as AdapterError and the refresh runs without the lease", async () => {
    const closed: RedisClientType = await createClient({ url: redisURL }).connect();
    await closed.quit();
    const down = redisRateLimitStore({ client: closed, prefix }) as LeaseStore;
    const { options, errors } = logger();
    let refreshes = 0;
    await underRefreshLease(options, down, `authlib:lease:refresh:${randomUUID()}`, {
      refresh: async () => void refreshes++,
      settled: async () => false,
    });
    expect(refreshes).toBe(1);
    expect(errors.map((e) => [e.constructor, e.message])).toEqual([
      [AdapterError, "The refresh lease could not be taken; refreshing without it."],
    ]);
    expect((errors[0]?.cause as { err?: unknown } | undefined)?.err).toBeInstanceOf(Error); // the store's own error, for the operator
  });
});
