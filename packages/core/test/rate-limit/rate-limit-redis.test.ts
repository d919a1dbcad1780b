/**
 * How the Redis rate-limit store talks to Redis: its scripts run by digest once Redis knows them (the
 * source is sent only when Redis answers NOSCRIPT), the window it asks for is whole milliseconds, a
 * reply it does not understand is an error (never a silent "no window"), and any other client error
 * reaches the caller. Against the real Redis on 127.0.0.1 (`AUTHLIB_TEST_REDIS_URL`), through a client
 * that records what the store sends; skipped, saying why, when no server answers. The conformance suite
 * is in `rate-limit-stores.test.ts`.
 */
import { createHash, randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisRateLimitClient, type RedisScriptArguments, redisRateLimitStore } from "../../src/rate-limit/redis.js";
import { redisAnswers, redisURL } from "../helpers/redis.js";

/** A client whose three methods answer what the test says, for the replies a real Redis never gives. */
function stubClient(reply: unknown): RedisRateLimitClient & { evals: number } {
  const stub = {
    evals: 0,
    evalSha: async () => reply,
    eval: async () => {
      stub.evals += 1;
      return reply;
    },
    del: async () => 0,
  };
  return stub;
}

describe("redisRateLimitStore, whatever the client answers", () => {
  // First in the file: the scripts' digests are computed once, by the first call that runs each script.
  it("runs each script by the SHA-1 digest (lower-case hex) of the source it sends when Redis does not know it", async () => {
    const digests: string[] = [];
    const sources: string[] = [];
    const client: RedisRateLimitClient = {
      evalSha: async (sha1) => {
        digests.push(sha1);
        throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      },
      eval: async (script) => {
        sources.push(script);
        return [1, 1_700_000_000_000];
      },
      del: async () => 0,
    };
    const store = redisRateLimitStore({ client });
    await store.increment("k", 1000);
    await store.get("k");
    expect(sources).toHaveLength(2);
    expect(digests).toEqual(sources.map((source) => createHash("sha1").update(source).digest("hex")));
  });

  it("takes a nil reply to a read as no window", async () => {
    expect(await redisRateLimitStore({ client: stubClient(null) }).get("k")).toBeNull();
    expect(await redisRateLimitStore({ client: stubClient(undefined) }).get("k")).toBeNull();
  });

  it("refuses a nil reply to an increment: a hit is never lost silently", async () => {
    await expect(redisRateLimitStore({ client: stubClient(null) }).increment("k", 1000)).rejects.toThrow(
      new TypeError("Unexpected reply from the Redis rate-limit script: null"),
    );
  });

  it("refuses replies that are not two whole numbers, naming the reply", async () => {
    for (const reply of [[1], [1, 2, 3], "1,2", "12", { count: 1, resetAt: 2 }, [1.5, 2], [1, "soon"], [2 ** 53, 1]]) {
      const store = redisRateLimitStore({ client: stubClient(reply) });
      await expect(store.get("k")).rejects.toThrow(
        new TypeError(`Unexpected reply from the Redis rate-limit script: ${JSON.stringify(reply)}`),
      );
    }
  });

  it("reads numbers given as strings (RESP2) as numbers", async () => {
    expect(await redisRateLimitStore({ client: stubClient(["3", "1700000000000"]) }).get("k")).toEqual({
      count: 3,
      resetAt: 1_700_000_000_000,
    });
  });

  it("passes a client error on: the digest call fails, the call by source fails the same way, that error is thrown", async () => {
    const down = new Error("connect ECONNREFUSED 127.0.0.1:6379");
    let evals = 0;
    const client: RedisRateLimitClient = {
      evalSha: () => Promise.reject(down),
      eval: async () => {
        evals += 1;
        throw down;
      },
      del: () => Promise.reject(down),
    };
    const store = redisRateLimitStore({ client });
    await expect(store.increment("k", 1000)).rejects.toBe(down);
    await expect(store.get("k")).rejects.toBe(down);
    await expect(store.reset("k")).rejects.toBe(down);
    // One retry by source per script call (no error text is read to tell "not cached" from "down").
    expect(evals).toBe(2);
    const notAnError: RedisRateLimitClient = { ...client, eval: () => Promise.reject("refused as a string") };
    await expect(redisRateLimitStore({ client: notAnError }).get("k")).rejects.toBe("refused as a string");
  });
});

const redisAvailable = await redisAnswers("the Redis store protocol tests");

describe.skipIf(!redisAvailable)("redisRateLimitStore on a real Redis", () => {
  const prefix = `authlib-test-${randomUUID()}:`;
  let redis: RedisClientType;

  beforeAll(async () => {
    redis = createClient({ url: redisURL });
    redis.on("error", () => {});
    await redis.connect();
  });

  afterAll(async () => {
    const leftover: string[] = [];
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) leftover.push(...keys);
    if (leftover.length > 0) await redis.del(leftover);
    redis.destroy();
  });

  /** The real client, with every call the store makes written down. */
  function recording() {
    const calls: Array<{ method: string; target: string; options?: RedisScriptArguments; outcome?: string }> = [];
    const client: RedisRateLimitClient = {
      async evalSha(sha1, options) {
        const call = { method: "evalSha", target: sha1, options, outcome: "ok" };
        calls.push(call);
        try {
          return await redis.evalSha(sha1, options);
        } catch (error) {
          call.outcome = error instanceof Error ? error.message : String(error);
          throw error;
        }
      },
      async eval(script, options) {
        calls.push({ method: "eval", target: script, options });
        return redis.eval(script, options);
      },
      async del(key) {
        calls.push({ method: "del", target: key });
        return redis.del(key);
      },
    };
    return { client, calls };
  }

  it("runs each script by its SHA-1 digest, sending the source only when Redis does not know it", async () => {
    await redis.scriptFlush();
    const { client, calls } = recording();
    const store = redisRateLimitStore({ client, prefix });
    const key = `digest-${randomUUID()}`;
    await store.increment(key, 60_000);
    await store.increment(key, 60_000);
    await store.get(key);
    await store.get(key);
    const scripts = calls.filter((call) => call.method === "eval").map((call) => call.target);
    expect(scripts).toHaveLength(2);
    const digests = scripts.map((source) => createHash("sha1").update(source).digest("hex"));
    expect(calls.map((call) => [call.method, call.method === "eval" ? "source" : call.target, call.outcome?.slice(0, 8)])).toEqual([
      ["evalSha", digests[0], "NOSCRIPT"],
      ["eval", "source", undefined],
      ["evalSha", digests[0], "ok"],
      ["evalSha", digests[1], "NOSCRIPT"],
      ["eval", "source", undefined],
      ["evalSha", digests[1], "ok"],
    ]);
    expect(calls[0]?.options).toEqual({ keys: [prefix + key], arguments: ["60000"] });
    expect(calls[3]?.options).toEqual({ keys: [prefix + key], arguments: [] });
  });

  it("asks Redis for whole milliseconds, rounding a fraction up; 1 ms is the shortest window", async () => {
    const { client, calls } = recording();
    const store = redisRateLimitStore({ client, prefix });
    await store.increment(`ms-${randomUUID()}`, 1500.2);
    await store.increment(`ms-${randomUUID()}`, 1);
    await expect(store.increment(`ms-${randomUUID()}`, 0.999)).rejects.toThrow(
      new RangeError("windowMs must be a finite number of milliseconds >= 1, got 0.999"),
    );
    const windows = calls.filter((call) => call.options?.arguments.length).map((call) => call.options?.arguments[0]);
    expect([...new Set(windows)]).toEqual(["1501", "1"]);
  });

  it("reset deletes the prefixed key", async () => {
    const { client, calls } = recording();
    const store = redisRateLimitStore({ client, prefix });
    const key = `reset-${randomUUID()}`;
    await store.increment(key, 60_000);
    await store.reset(key);
    expect(calls.at(-1)).toEqual({ method: "del", target: prefix + key });
    expect(await redis.exists(prefix + key)).toBe(0);
    expect(await store.get(key)).toBeNull();
  });

  it("takes a key without reset_at (written by something else) as having no window, and opens a new one on a hit", async () => {
    const store = redisRateLimitStore({ client: redis, prefix });
    const key = `foreign-${randomUUID()}`;
    await redis.hSet(prefix + key, { count: "7" });
    expect(await store.get(key)).toBeNull();
    expect((await store.increment(key, 60_000)).count).toBe(1);
    expect(await redis.hGet(prefix + key, "count")).toBe("1");
  });
});
