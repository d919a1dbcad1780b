/**
 * The rate-limit store conformance suite on the memory store and on a real Redis
 * (`AUTHLIB_TEST_REDIS_URL`, else redis://127.0.0.1:6379) through two node-redis connections, as two
 * instances would have. Every Redis key of this file starts with a random prefix and is deleted at the
 * end. The Redis part is skipped, saying why, when no server answers.
 */
import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REDIS_RATE_LIMIT_PREFIX, redisRateLimitStore } from "../../src/rate-limit/redis.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { freshKey, runRateLimitStoreSuite, waitForWindowEnd } from "../helpers/rate-limit-store-suite.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

runRateLimitStoreSuite({
  name: "memoryRateLimitStore (one object is one instance)",
  stores: () => {
    const store = memoryRateLimitStore();
    return { first: store, second: store };
  },
});

const redisAvailable = await redisAnswers("the Redis store tests");

describe.skipIf(!redisAvailable)(`redisRateLimitStore on Redis at ${new URL(redisURL).host}`, () => {
  const prefix = `authlib-test-${randomUUID()}:`;
  let connections: RedisClientType[] = [];

  /** A connected client, closed after the file. */
  async function connect(): Promise<RedisClientType> {
    const client: RedisClientType = createClient({ url: redisURL });
    client.on("error", () => {});
    await client.connect();
    connections.push(client);
    return client;
  }

  beforeAll(async () => {
    connections = [];
    await connect();
    await connect();
  });

  afterAll(async () => {
    const [admin] = connections;
    if (admin) {
      const leftover: string[] = [];
      for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) leftover.push(...keys);
      if (leftover.length > 0) await admin.del(leftover);
    }
    for (const client of connections) client.destroy();
  });

  runRateLimitStoreSuite({
    name: "conformance, two connections",
    stores: () => ({
      first: redisRateLimitStore({ client: connections[0]!, prefix }),
      second: redisRateLimitStore({ client: connections[1]!, prefix }),
    }),
  });

  describe("in Redis", () => {
    it("keeps a window under prefix + key, expiring by itself when it ends", async () => {
      const [client] = connections;
      const store = redisRateLimitStore({ client: client!, prefix });
      const key = freshKey();
      const window = await store.increment(key, 60_000);
      expect(await client!.hGetAll(prefix + key)).toEqual({ count: "1", reset_at: String(window.resetAt) });
      const ttl = await client!.pTTL(prefix + key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);

      const short = freshKey();
      const ended = await store.increment(short, 200);
      await waitForWindowEnd(store, short, ended);
      // Ended windows leave nothing behind: Redis expired the key at resetAt.
      expect(await client!.exists(prefix + short)).toBe(0);
    });

    it("uses the default prefix when none is given", async () => {
      const [client] = connections;
      const store = redisRateLimitStore({ client: client! });
      const key = `${prefix}default-prefix`;
      try {
        await store.increment(key, 60_000);
        expect(await client!.exists(DEFAULT_REDIS_RATE_LIMIT_PREFIX + key)).toBe(1);
      } finally {
        await store.reset(key);
      }
      expect(await client!.exists(DEFAULT_REDIS_RATE_LIMIT_PREFIX + key)).toBe(0);
    });

    it("loads its scripts again when Redis has forgotten them (restart, SCRIPT FLUSH)", async () => {
      const [client] = connections;
      const store = redisRateLimitStore({ client: client!, prefix });
      const key = freshKey();
      await store.increment(key, 60_000);
      // Drops only the script cache; every client using EVALSHA correctly reloads as we do.
      await client!.scriptFlush();
      expect((await store.get(key))?.count).toBe(1);
      expect((await store.increment(key, 60_000)).count).toBe(2);
    });

    it("counts a RESP2 connection's hits in the same windows", async () => {
      const resp2 = createClient({ url: redisURL, RESP: 2 });
      resp2.on("error", () => {});
      await resp2.connect();
      try {
        const key = freshKey();
        const window = await redisRateLimitStore({ client: connections[0]!, prefix }).increment(key, 60_000);
        expect(await redisRateLimitStore({ client: resp2, prefix }).increment(key, 60_000)).toEqual({ count: 2, resetAt: window.resetAt });
      } finally {
        resp2.destroy();
      }
    });

    it("refuses a window shorter than 1 ms before it reaches Redis", async () => {
      const store = redisRateLimitStore({ client: connections[0]!, prefix });
      for (const windowMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(store.increment(freshKey(), windowMs)).rejects.toBeInstanceOf(RangeError);
      }
    });

    it("passes Redis errors to the caller (a key of another type under the prefix)", async () => {
      const [client] = connections;
      const store = redisRateLimitStore({ client: client!, prefix });
      const key = freshKey();
      await client!.set(prefix + key, "not a window");
      await expect(store.increment(key, 60_000)).rejects.toThrow(/WRONGTYPE/);
    });
  });
});
