/**
 * Session records in Redis, shared by every instance that talks to the same Redis: the session registry
 * (`session.store`) for JWT sessions on a fleet, without a SQL database.
 *
 * Core never imports a Redis client: the store takes the application's connected client, typed by the two
 * script methods it calls ({@link RedisScriptClient}, from the rate-limit store), which a `redis`
 * (node-redis) client, pool or cluster satisfies. Each operation is one Lua script, so one round trip and
 * atomic. Dates are the caller's, kept as given; Redis drops a record itself at its `expires` (PEXPIREAT).
 *
 * Keys: a user's keys share one hash tag, so each script touches a single Redis Cluster slot:
 * `<prefix>{<user>}:s:<id>` is a record (a hash) and `<prefix>{<user>}:u` the sorted set of the user's
 * record ids scored by their expiry (ms). `<user>` is the user id in base64url, so no user id (one
 * holding `{`, `}` or `:` included) can end the tag early or name another user's keys. The scripts of a
 * whole user build the record keys from the ids in the set; they stay in the declared key's slot.
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * import { redisSessionStore } from "@authlib/core/session/redis";
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * export const config = { session: { store: redisSessionStore({ client: redis }) }, … };
 * ```
 *
 * @module session/redis
 */
import { CachedScript, type RedisScriptClient } from "../rate-limit/redis-script.js";
import type { SessionRecord, SessionRegistry } from "../types/session-registry.js";

/** Settings of {@link redisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A connected client; the store never connects or closes it. */
  client: RedisScriptClient;
  /**
   * Put before every key, so the records stay apart from the application's other keys and from another
   * application on the same Redis. Default `"authlib:session:"`.
   */
  prefix?: string;
}

/** The default key prefix of {@link redisSessionStore}. */
export const DEFAULT_REDIS_SESSION_PREFIX = "authlib:session:";

/**
 * Lua: `record(key)` is the record hash's flat field list, or nil when the key is gone or holds something
 * that is not a hash (written by something else: skipped, never an error). `keep_set_expiry(set)` makes
 * the user's set expire with its latest record (scores are whole milliseconds; "%.0f" writes them so).
 */
const HELPERS = `local function record(key)
  if redis.call("TYPE", key)["ok"] ~= "hash" then return nil end
  return redis.call("HGETALL", key)
end
local function keep_set_expiry(set)
  local latest = redis.call("ZRANGE", set, -1, -1, "WITHSCORES")
  if latest[2] then redis.call("PEXPIREAT", set, string.format("%.0f", tonumber(latest[2]))) end
end`;

/**
 * KEYS: record, set. ARGV: id, expires, now, then the record's fields and values. Writes the record
 * whole, adds it to the set and drops the set's members past `now` (their records are gone).
 */
const CREATE_SCRIPT = `${HELPERS}
redis.call("DEL", KEYS[1])
redis.call("HSET", KEYS[1], unpack(ARGV, 4))
redis.call("PEXPIREAT", KEYS[1], ARGV[2])
redis.call("ZADD", KEYS[2], ARGV[2], ARGV[1])
redis.call("ZREMRANGEBYSCORE", KEYS[2], "-inf", ARGV[3])
keep_set_expiry(KEYS[2])
`;

/** KEYS: record. The record's fields, or nil. */
const GET_SCRIPT = `${HELPERS}
return record(KEYS[1])
`;

/**
 * KEYS: set. ARGV: the record key before the id, now. The records of the set's live ids; ids whose record
 * is gone (or not a record) leave the set.
 */
const LIST_SCRIPT = `${HELPERS}
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[2])
local found = {}
for _, id in ipairs(redis.call("ZRANGEBYSCORE", KEYS[1], "(" .. ARGV[2], "+inf")) do
  local fields = record(ARGV[1] .. id)
  if fields then found[#found + 1] = fields else redis.call("ZREM", KEYS[1], id) end
end
return found
`;

/** KEYS: record, set. ARGV: id, lastSeenAt, expires. Only an existing record changes. */
const TOUCH_SCRIPT = `${HELPERS}
if not record(KEYS[1]) then return 0 end
redis.call("HSET", KEYS[1], "lastSeenAt", ARGV[2], "expires", ARGV[3])
redis.call("PEXPIREAT", KEYS[1], ARGV[3])
redis.call("ZADD", KEYS[2], ARGV[3], ARGV[1])
keep_set_expiry(KEYS[2])
return 1
`;

/**
 * KEYS: set. ARGV: the record key before the id, then `"ids"` and the ids, or `"all"` and optionally the
 * id to keep. Deletes those records and answers them.
 */
const DELETE_SCRIPT = `${HELPERS}
local ids, keep = {}, nil
if ARGV[2] == "all" then
  ids = redis.call("ZRANGE", KEYS[1], 0, -1)
  keep = ARGV[3]
else
  for i = 3, #ARGV do ids[#ids + 1] = ARGV[i] end
end
local deleted = {}
for _, id in ipairs(ids) do
  if id ~= keep then
    local key = ARGV[1] .. id
    local fields = record(key)
    if fields then
      redis.call("DEL", key)
      deleted[#deleted + 1] = fields
    end
    redis.call("ZREM", KEYS[1], id)
  end
end
return deleted
`;

const createScript = new CachedScript(CREATE_SCRIPT);
const getScript = new CachedScript(GET_SCRIPT);
const listScript = new CachedScript(LIST_SCRIPT);
const touchScript = new CachedScript(TOUCH_SCRIPT);
const deleteScript = new CachedScript(DELETE_SCRIPT);

/**
 * A {@link SessionRegistry} in Redis (see the module comment). Instances see each other's records when
 * they use the same Redis and prefix. Errors of the client (Redis down, …) reach the caller unchanged.
 */
export function redisSessionStore(options: RedisSessionStoreOptions): SessionRegistry {
  const { client } = options;
  const prefix = options.prefix ?? DEFAULT_REDIS_SESSION_PREFIX;
  const keysOf = (userId: string) => {
    const user = `${prefix}{${userTag(userId)}}`;
    return { set: `${user}:u`, recordBase: `${user}:s:` };
  };

  return {
    async create(record) {
      const { set, recordBase } = keysOf(record.userId);
      const expires = milliseconds(record.expires, "expires");
      await createScript.run(client, {
        keys: [recordBase + record.id, set],
        arguments: [record.id, expires, String(Date.now()), ...recordFields(record)],
      });
    },
    async get(userId, id) {
      const { recordBase } = keysOf(userId);
      const reply = await getScript.run(client, { keys: [recordBase + id], arguments: [] });
      const record = toRecord(reply, userId);
      return record && record.id === id && record.expires.getTime() > Date.now() ? record : null;
    },
    async listByUser(userId) {
      const { set, recordBase } = keysOf(userId);
      const now = Date.now();
      const reply = await listScript.run(client, { keys: [set], arguments: [recordBase, String(now)] });
      return toRecords(reply, userId).filter((record) => record.expires.getTime() > now);
    },
    async touch(userId, id, lastSeenAt, expires) {
      const { set, recordBase } = keysOf(userId);
      await touchScript.run(client, {
        keys: [recordBase + id, set],
        arguments: [id, milliseconds(lastSeenAt, "lastSeenAt"), milliseconds(expires, "expires")],
      });
    },
    async delete(userId, ids, except) {
      const { set, recordBase } = keysOf(userId);
      const selection = ids ? ["ids", ...ids.filter((id) => id !== except)] : except === undefined ? ["all"] : ["all", except];
      if (selection[0] === "ids" && selection.length === 1) return [];
      return toRecords(await deleteScript.run(client, { keys: [set], arguments: [recordBase, ...selection] }), userId);
    },
  };
}

/**
 * The user id inside the hash tag: its UTF-8 bytes in base64url, which has no `{`, `}` or `:`, so the tag
 * ends where the store ends it and two user ids never share keys. The empty id is `-`: a base64url text is
 * never one character long, so `-` names no other user, and the tag is never `{}` (which Redis Cluster
 * would not take as a tag, scattering the user's keys over slots).
 */
function userTag(userId: string): string {
  if (userId === "") return "-";
  const bytes = new TextEncoder().encode(userId);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A date as the whole milliseconds Redis takes; an invalid date is a programming error, refused before any write. */
function milliseconds(date: Date, name: string): string {
  const time = date instanceof Date ? date.getTime() : Number.NaN;
  if (!Number.isSafeInteger(time)) throw new RangeError(`${name} must be a valid Date, got ${String(date)}`);
  return String(time);
}

/** The record as the hash's fields and values; a `null` field is left out. */
function recordFields(record: SessionRecord): string[] {
  const fields = [
    "id",
    record.id,
    "userId",
    record.userId,
    "createdAt",
    milliseconds(record.createdAt, "createdAt"),
    "lastSeenAt",
    milliseconds(record.lastSeenAt, "lastSeenAt"),
    "expires",
    milliseconds(record.expires, "expires"),
  ];
  for (const name of ["userAgent", "clientAddress", "provider"] as const) {
    const value = record[name];
    if (value !== null) fields.push(name, value);
  }
  return fields;
}

/** The records of a script's list of field lists; what is not a record of `userId` is skipped. */
function toRecords(reply: unknown, userId: string): SessionRecord[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((fields) => {
    const record = toRecord(fields, userId);
    return record ? [record] : [];
  });
}

/**
 * A record from a hash's flat field list (RESP2 and RESP3 both give one from a script), or `null` when it
 * is not a whole record of `userId`: a key written by something else is skipped, never a crash, and never
 * answered for another user.
 */
function toRecord(fields: unknown, userId: string): SessionRecord | null {
  if (!Array.isArray(fields) || fields.length % 2 !== 0) return null;
  const hash = new Map<string, unknown>();
  for (let i = 0; i < fields.length; i += 2) hash.set(String(fields[i]), fields[i + 1]);
  const id = hash.get("id");
  const owner = hash.get("userId");
  const createdAt = toDate(hash.get("createdAt"));
  const lastSeenAt = toDate(hash.get("lastSeenAt"));
  const expires = toDate(hash.get("expires"));
  if (typeof id !== "string" || owner !== userId || !createdAt || !lastSeenAt || !expires) return null;
  const optional = (name: string) => {
    const value = hash.get(name);
    return typeof value === "string" ? value : null;
  };
  return {
    id,
    userId,
    createdAt,
    lastSeenAt,
    expires,
    userAgent: optional("userAgent"),
    clientAddress: optional("clientAddress"),
    provider: optional("provider"),
  };
}

/** A date from whole milliseconds written as decimal text; `null` for anything else. */
function toDate(value: unknown): Date | null {
  if (typeof value !== "string" || !/^-?\d{1,16}$/.test(value)) return null;
  const time = Number(value);
  return Number.isSafeInteger(time) ? new Date(time) : null;
}
