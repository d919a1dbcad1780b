/**
 * The lease of the shared stores (`lease` / `release`, issue 26): what session/refresh.ts relies on to let
 * one instance at a time spend a refresh token. Run on the real Redis (`redisRateLimitStore`) and the real
 * PostgreSQL (`hostedDbRateLimitStore`), each through TWO store objects with their own connection, as two
 * instances have: one holder at a time, also among many concurrent takers; release only by the holder's
 * token; a lease ends by itself after its lifetime and is then free to take. Skipped, saying why, when a
 * server does not answer.
 */
import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbClient, hostedDbRateLimitStore } from "../../../hosted-db-adapter/src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { redisRateLimitStore } from "../../src/rate-limit/redis.js";
import type { RateLimitStore } from "../../src/rate-limit/store.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

type Leasing = Required<Pick<RateLimitStore, "lease" | "release">>;

interface Kind {
  name: string;
  available: boolean;
  /** Two store objects of one shared store, each with its own connection. */
  open(): Promise<[Leasing, Leasing]>;
  close(): Promise<void>;
}

function redisKind(available: boolean): Kind {
  const prefix = `authlib-lease-test-${randomUUID()}:`;
  const clients: RedisClientType[] = [];
  return {
    name: "Redis",
    available,
    async open() {
      for (let i = 0; i < 2; i++) clients.push(await createClient({ url: redisURL }).connect());
      const [a, b] = clients.map((client) => redisRateLimitStore({ client, prefix }) as Leasing);
      return [a as Leasing, b as Leasing];
    },
    async close() {
      const [first] = clients;
      if (first) for (const key of await first.keys(`${prefix}*`)) await first.del(key);
      await Promise.all(clients.map((client) => client.quit()));
    },
  };
}

function postgresKind(available: boolean): Kind {
  const branch = randomBranch("lease");
  const clients: HostedDbClient[] = [];
  return {
    name: "PostgreSQL",
    available,
    async open() {
      for (let i = 0; i < 2; i++) clients.push(new HostedDbClient({ databaseURL: testDatabaseURL(), branch }));
      await clients[0]?.migrate();
      const [a, b] = clients.map((client) => hostedDbRateLimitStore(client));
      return [a as Leasing, b as Leasing];
    },
    async close() {
      const [first] = clients;
      if (first) await dropBranch(first, branch);
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}

const kinds = [
  redisKind(await redisAnswers("the Redis lease tests")),
  postgresKind(await postgresAnswers(testDatabaseURL(), "the PostgreSQL lease tests")),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`${kind.name}: the lease shared by instances`, () => {
    let first: Leasing;
    let second: Leasing;
    beforeAll(async () => {
      [first, second] = await kind.open();
    });
    afterAll(() => kind.close());

    it("one holder at a time: the other instance gets null until the holder releases", async () => {
      const key = `authlib:lease:test:${randomUUID()}`;
      const token = await first.lease(key, 60_000);
      expect(typeof token).toBe("string");
      expect(await second.lease(key, 60_000)).toBeNull();
      expect(await first.lease(key, 60_000)).toBeNull(); // not re-entrant: the holder itself is refused too
      await first.release(key, token as string);
      const next = await second.lease(key, 60_000);
      expect(typeof next).toBe("string");
      expect(next).not.toBe(token);
    });

    it("release ends the lease only for its holder's token (compare-and-delete)", async () => {
      const key = `authlib:lease:test:${randomUUID()}`;
      const token = (await first.lease(key, 60_000)) as string;
      await second.release(key, "1234567890123456789");
      await second.release(key, "not-a-token");
      expect(await second.lease(key, 60_000)).toBeNull();
      await second.release(key, token);
      expect(await second.lease(key, 60_000)).not.toBeNull();
    });

    it("a lease ends by itself after its lifetime; the late holder's release leaves the new holder's lease alone", async () => {
      const key = `authlib:lease:test:${randomUUID()}`;
      const stale = (await first.lease(key, 150)) as string;
      expect(await second.lease(key, 150)).toBeNull();
      await sleep(300);
      const fresh = await second.lease(key, 60_000);
      expect(fresh).not.toBeNull();
      await first.release(key, stale);
      expect(await first.lease(key, 60_000)).toBeNull();
    });

    it("of 40 concurrent takers on two instances, exactly one gets the lease", async () => {
      const key = `authlib:lease:test:${randomUUID()}`;
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).lease(key, 60_000)));
      expect(results.filter((token) => token !== null)).toHaveLength(1);
    });

    it("leases of different keys are independent", async () => {
      const [a, b] = [`authlib:lease:test:${randomUUID()}`, `authlib:lease:test:${randomUUID()}`];
      expect(await first.lease(a, 60_000)).not.toBeNull();
      expect(await second.lease(b, 60_000)).not.toBeNull();
    });
  });
}

describe("the memory store", () => {
  it("has no lease: refresh is coordinated within the process only (documented)", () => {
    const store = memoryRateLimitStore();
    expect(store.lease).toBeUndefined();
    expect(store.release).toBeUndefined();
  });
});
