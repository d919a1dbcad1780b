/**
 * The three real rate-limit stores, for tests that must hold on each: memory, Redis
 * (`AUTHLIB_TEST_REDIS_URL`, else redis://127.0.0.1:6379, keys under a random prefix deleted by
 * `close()`) and PostgreSQL through `hostedDbRateLimitStore` (a random branch, dropped by `close()`).
 * A kind whose server does not answer is marked unavailable, and its tests are skipped saying why.
 */
import { randomUUID } from "node:crypto";
import { HostedDbClient, hostedDbRateLimitStore } from "@authlib/hosted-db-adapter";
import { createClient, type RedisClientType } from "redis";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "../../../hosted-db-adapter/test/helpers.js";
import { redisRateLimitStore } from "../../src/rate-limit/redis.js";
import { memoryRateLimitStore, type RateLimitStore } from "../../src/rate-limit/store.js";
import { redisAnswers, redisURL } from "./redis.js";

/** One kind of store: `open()` makes one instance's store (its own connection); `close()` ends them all. */
export interface StoreKind {
  name: string;
  available: boolean;
  open(): Promise<RateLimitStore>;
  close(): Promise<void>;
}

function memoryKind(): StoreKind {
  return { name: "memory", available: true, open: async () => memoryRateLimitStore(), close: async () => {} };
}

function redisKind(available: boolean): StoreKind {
  const prefix = `authlib-test-${randomUUID()}:`;
  const clients: RedisClientType[] = [];
  return {
    name: "Redis",
    available,
    async open() {
      const client: RedisClientType = createClient({ url: redisURL });
      client.on("error", () => {});
      await client.connect();
      clients.push(client);
      return redisRateLimitStore({ client, prefix });
    },
    async close() {
      const [first] = clients;
      if (first) for (const key of await first.keys(`${prefix}*`)) await first.del(key);
      for (const client of clients.splice(0)) client.destroy();
    },
  };
}

function postgresKind(available: boolean): StoreKind {
  const branch = randomBranch("rl_kinds");
  const clients: HostedDbClient[] = [];
  return {
    name: "PostgreSQL",
    available,
    async open() {
      const client = new HostedDbClient({ databaseURL: testDatabaseURL(), branch });
      if (clients.length === 0) await client.migrate();
      clients.push(client);
      return hostedDbRateLimitStore(client);
    },
    async close() {
      const [first] = clients;
      if (first) await dropBranch(first, branch);
      await Promise.all(clients.splice(0).map((client) => client.close()));
    },
  };
}

/** Memory, Redis and PostgreSQL, each with whether its server answers. */
export async function storeKinds(): Promise<StoreKind[]> {
  return [
    memoryKind(),
    redisKind(await redisAnswers("the Redis store tests")),
    postgresKind(await postgresAnswers(testDatabaseURL(), "the PostgreSQL rate-limit store tests")),
  ];
}
