/**
 * Rate-limit counters in Redis, shared by every instance that talks to the same Redis: the store for
 * limits that must hold across a fleet (or across restarts) without a SQL database.
 *
 * Core never imports a Redis client: the store takes the application's connected client, typed by the
 * few methods it calls ({@link RedisRateLimitClient}), which a `redis` (node-redis) client, pool or
 * cluster satisfies. Each operation is one round trip; `increment` is one Lua script, so it is atomic,
 * and its times come from the Redis server's clock (`TIME`), so instances with skewed clocks agree on
 * when a window ends. `lease` (`SET NX PX`) and `release` (compare-and-delete by the holder's token) are
 * one script each too, so atomic as well.
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * import { redisRateLimitStore } from "@authlib/core/rate-limit/redis";
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = redisRateLimitStore({ client: redis });
 * ```
 *
 * @module rate-limit/redis
 */
import { CachedScript, type RedisScriptArguments, type RedisScriptClient } from "./redis-script.js";
import type { RateLimitStore, RateLimitWindow } from "./store.js";

export type { RedisScriptArguments, RedisScriptClient };

/**
 * The methods of a connected Redis client the store calls (node-redis 5 and 6 names and signatures;
 * `createClient()`, `createClientPool()` and `createCluster()` results all fit). Other clients fit through
 * a small wrapper object with these three methods.
 */
export interface RedisRateLimitClient extends RedisScriptClient {
  /** `DEL key`. */
  del(key: string): Promise<unknown>;
}

/** Settings of {@link redisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** A connected client; the store never connects or closes it. */
  client: RedisRateLimitClient;
  /**
   * Put before every key, so the counters stay apart from the application's other keys and from another
   * application on the same Redis. Default `"authlib:rate-limit:"`.
   */
  prefix?: string;
}

/** The default key prefix of {@link redisRateLimitStore}. */
export const DEFAULT_REDIS_RATE_LIMIT_PREFIX = "authlib:rate-limit:";

/** The server's clock in milliseconds since the epoch, as a Lua statement (shared by both scripts). */
const SERVER_NOW = `local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

/**
 * Adds one hit; returns `{count, resetAt}`. A window is a hash {count, reset_at} that expires at its
 * reset_at (PEXPIREAT), so Redis drops ended windows itself. The end is stored, not derived from the TTL,
 * so every hit of a window returns exactly the same resetAt. A key without reset_at (written by
 * something else) is taken as ended.
 */
const INCREMENT_SCRIPT = `${SERVER_NOW}
local reset_at = tonumber(redis.call("HGET", KEYS[1], "reset_at"))
if reset_at == nil or reset_at <= now then
  reset_at = now + tonumber(ARGV[1])
  local stored = string.format("%.0f", reset_at)
  redis.call("DEL", KEYS[1])
  redis.call("HSET", KEYS[1], "count", 1, "reset_at", stored)
  redis.call("PEXPIREAT", KEYS[1], stored)
  return { 1, reset_at }
end
return { redis.call("HINCRBY", KEYS[1], "count", 1), reset_at }
`;

/** Returns `{count, resetAt}` of the live window, or nil. Reads only. */
const GET_SCRIPT = `${SERVER_NOW}
local window = redis.call("HMGET", KEYS[1], "count", "reset_at")
local count, reset_at = tonumber(window[1]), tonumber(window[2])
if count == nil or reset_at == nil or reset_at <= now then return nil end
return { count, reset_at }
`;

/** `SET key token NX PX ttl`: 1 when the lease was free (now taken by `token`), 0 when it is held. */
const LEASE_SCRIPT = `if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 1 end
return 0
`;

/** Compare-and-delete: deletes the lease only while `token` holds it. */
const RELEASE_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0
`;

const incrementScript = new CachedScript(INCREMENT_SCRIPT);
const getScript = new CachedScript(GET_SCRIPT);
const leaseScript = new CachedScript(LEASE_SCRIPT);
const releaseScript = new CachedScript(RELEASE_SCRIPT);

/**
 * A {@link RateLimitStore} in Redis. Limits hold across instances when they all use the same Redis and
 * prefix. Errors of the client (Redis down, …) reach the caller unchanged.
 */
export function redisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  const { client } = options;
  const prefix = options.prefix ?? DEFAULT_REDIS_RATE_LIMIT_PREFIX;

  return {
    async increment(key, windowMs) {
      const reply = await incrementScript.run(client, { keys: [prefix + key], arguments: [String(windowMilliseconds(windowMs))] });
      return toWindow(reply) ?? unexpectedReply(reply);
    },
    async get(key) {
      return toWindow(await getScript.run(client, { keys: [prefix + key], arguments: [] }));
    },
    async reset(key) {
      await client.del(prefix + key);
    },
    // Scripts rather than SET/GET calls, so the client needs no methods beyond the three above.
    async lease(key, ttlMs) {
      const token = crypto.randomUUID();
      const reply = await leaseScript.run(client, { keys: [prefix + key], arguments: [token, String(windowMilliseconds(ttlMs))] });
      return Number(reply) === 1 ? token : null;
    },
    async release(key, token) {
      await releaseScript.run(client, { keys: [prefix + key], arguments: [token] });
    },
  };
}

/** `windowMs` as the whole milliseconds PEXPIRE takes; a window shorter than 1 ms is a programming error. */
function windowMilliseconds(windowMs: number): number {
  if (!Number.isFinite(windowMs) || windowMs < 1) {
    throw new RangeError(`windowMs must be a finite number of milliseconds >= 1, got ${windowMs}`);
  }
  return Math.ceil(windowMs);
}

/** The `[count, resetAt]` array of the scripts (RESP2 and RESP3 both give numbers), or null for nil. */
function toWindow(reply: unknown): RateLimitWindow | null {
  if (reply === null || reply === undefined) return null;
  if (!Array.isArray(reply) || reply.length !== 2) return unexpectedReply(reply);
  const [count, resetAt] = reply.map(Number);
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(resetAt)) return unexpectedReply(reply);
  return { count, resetAt };
}

function unexpectedReply(reply: unknown): never {
  throw new TypeError(`Unexpected reply from the Redis rate-limit script: ${JSON.stringify(reply)}`);
}
