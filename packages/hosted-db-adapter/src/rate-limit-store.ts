/**
 * `hostedDbRateLimitStore`: authlib's rate-limit counters in the hosted database, so that every instance
 * using the same database (and branch) enforces the same limits.
 *
 * Each operation is ONE statement. `increment` is an upsert whose conflict branch either adds one to a
 * live window or opens a new one, so concurrent hits from any number of instances are counted exactly
 * (Postgres serialises them on the row). Every time is the database server's `now()`: instances with
 * skewed clocks agree on when a window ends.
 *
 * Leases (`lease` / `release`, which authlib takes so that one instance at a time refreshes a provider
 * token) are rows of the same table, so they need no migration: `count` holds the holder's random token,
 * `reset_at` the lease's end, and the sweep removes ended leases as it removes ended windows. Taking one is
 * one upsert that writes only over an ended row (Postgres serialises concurrent ones on the row, so one
 * wins); releasing is a delete of the row only while it still holds the token. Lease keys are authlib's
 * own (`authlib:lease:…`), never a limiter's key.
 *
 * @module rate-limit-store
 */
import { createHash, randomBytes } from "node:crypto";
import type { RateLimitStore, RateLimitWindow } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { quoteIdentifier } from "./sql.js";

/** The table the store keeps its windows in (created by migration 2). */
export const RATE_LIMIT_TABLE = "authlib_rate_limits";

/** Settings of {@link hostedDbRateLimitStore}. */
export interface HostedDbRateLimitStoreOptions {
  /**
   * Least time between two sweeps of ended windows by this store object, in milliseconds. A sweep is
   * started by a hit, in the background, never more often than this. Default 60,000 (one minute).
   */
  sweepIntervalMs?: number;
  /** Most ended windows one sweep deletes (keeps each sweep short). Default 1,000. */
  sweepLimit?: number;
}

/** A {@link RateLimitStore} in the hosted database, with the sweep of ended windows exposed. */
export interface HostedDbRateLimitStore extends RateLimitStore {
  /**
   * Deletes up to `sweepLimit` ended windows now, and returns how many it deleted. Hits already do this
   * at most once per `sweepIntervalMs`; call it from a scheduled job to keep the table small when hits
   * are rare.
   */
  deleteEndedWindows(): Promise<number>;
  /** Takes the lease `key` for `ttlMs` (see `RateLimitStore.lease`); one upsert. */
  lease(key: string, ttlMs: number): Promise<string | null>;
  /** Ends the lease `key` while `token` holds it (see `RateLimitStore.release`); one delete. */
  release(key: string, token: string): Promise<void>;
}

/** Keys longer than this (UTF-16 units) are stored as their digest, far below a btree entry's size limit. */
const MAX_PLAIN_KEY_LENGTH = 256;

/** Marks a digested key; keys that start with it are digested too, so a plain key never equals a digest. */
const DIGEST_MARK = "#sha256:";

/**
 * Rate-limit counters in `client`'s branch. Run `client.migrate()` (or `npx authlib-db migrate`) first;
 * before that, calls fail with `HostedDbError("MissingMigration")`. Database errors reach the caller.
 *
 * @example
 * ```ts
 * const client = new HostedDbClient({ databaseURL: process.env.DATABASE_URL });
 * await client.migrate();
 * const store = hostedDbRateLimitStore(client);
 * ```
 */
export function hostedDbRateLimitStore(client: HostedDbClient, options: HostedDbRateLimitStoreOptions = {}): HostedDbRateLimitStore {
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const sweepLimit = options.sweepLimit ?? 1_000;
  if (!(sweepIntervalMs >= 0) || !Number.isSafeInteger(sweepLimit) || sweepLimit < 1) {
    throw new RangeError("hostedDbRateLimitStore: sweepIntervalMs must be >= 0 and sweepLimit a whole number >= 1.");
  }
  const sql = rateLimitStatements(`${quoteIdentifier(client.branch)}.${quoteIdentifier(RATE_LIMIT_TABLE)}`, sweepLimit);
  const { deleteEndedWindows, sweepIfDue } = endedWindowSweeper(client, sql.sweep, sweepIntervalMs);

  return {
    async increment(key, windowMs) {
      const { rows } = await client.query<WindowRow>(sql.increment, [storedKey(key), windowMilliseconds(windowMs)]);
      sweepIfDue();
      return toWindow(rows[0]);
    },
    async get(key) {
      const { rows } = await client.query<WindowRow>(sql.get, [storedKey(key)]);
      return rows[0] === undefined ? null : toWindow(rows[0]);
    },
    async reset(key) {
      await client.query(sql.reset, [storedKey(key)]);
    },
    async lease(key, ttlMs) {
      const token = leaseToken();
      const { rows } = await client.query(sql.lease, [storedKey(key), token, windowMilliseconds(ttlMs)]);
      sweepIfDue();
      return rows.length === 1 ? token : null;
    },
    async release(key, token) {
      // A token this store never issued matches no row (and is no bigint for Postgres): nothing to end.
      if (!/^[1-4][0-9]{18}$/.test(token)) return;
      await client.query(sql.release, [storedKey(key), token]);
    },
    deleteEndedWindows,
  };
}

/** The store's statements over `table` (quoted), each one statement. */
function rateLimitStatements(table: string, sweepLimit: number) {
  // Windows are whole milliseconds, so the resetAt the store returns is exactly the stored end.
  const resetAtMs = `(extract(epoch FROM "reset_at") * 1000)::bigint AS "reset_at"`;
  return {
    increment: `
    INSERT INTO ${table} AS w ("key", "count", "reset_at")
    VALUES ($1, 1, date_trunc('milliseconds', now()) + $2::bigint * interval '1 millisecond')
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN w."reset_at" > now() THEN w."count" + 1 ELSE 1 END,
      "reset_at" = CASE WHEN w."reset_at" > now() THEN w."reset_at" ELSE EXCLUDED."reset_at" END
    RETURNING "count", ${resetAtMs}`,
    get: `SELECT "count", ${resetAtMs} FROM ${table} WHERE "key" = $1 AND "reset_at" > now()`,
    reset: `DELETE FROM ${table} WHERE "key" = $1`,
    // The conflict branch writes only over an ended row, so no row comes back while a live lease is held.
    lease: `
    INSERT INTO ${table} AS w ("key", "count", "reset_at")
    VALUES ($1, $2::bigint, date_trunc('milliseconds', now()) + $3::bigint * interval '1 millisecond')
    ON CONFLICT ("key") DO UPDATE SET "count" = EXCLUDED."count", "reset_at" = EXCLUDED."reset_at"
      WHERE w."reset_at" <= now()
    RETURNING 1`,
    release: `DELETE FROM ${table} WHERE "key" = $1 AND "count" = $2::bigint`,
    // SKIP LOCKED: never wait for a row a hit is writing. The outer condition is checked again on a row a
    // hit renewed meanwhile, so a live window is never deleted.
    sweep: `
    DELETE FROM ${table} WHERE "key" IN (
      SELECT "key" FROM ${table} WHERE "reset_at" <= now() LIMIT ${sweepLimit} FOR UPDATE SKIP LOCKED
    ) AND "reset_at" <= now()
    RETURNING 1`,
  };
}

/**
 * The sweep of ended windows: `deleteEndedWindows` runs it now (one at a time: a call during a sweep
 * shares it), `sweepIfDue` starts one in the background when the last is older than the interval.
 */
function endedWindowSweeper(client: HostedDbClient, sweepSql: string, sweepIntervalMs: number) {
  let lastSweep = Number.NEGATIVE_INFINITY;
  let sweeping: Promise<number> | undefined;

  const deleteEndedWindows = (): Promise<number> => {
    sweeping ??= client
      .query(sweepSql)
      .then(({ rows }) => rows.length)
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  };

  const sweepIfDue = () => {
    const time = Date.now();
    if (time - lastSweep < sweepIntervalMs) return;
    lastSweep = time;
    // A failed sweep is not the hit's failure; the next interval tries again.
    deleteEndedWindows().catch(() => {});
  };
  return { deleteEndedWindows, sweepIfDue };
}

/** A window as the statements return it: `pg` gives bigint columns as strings, PGlite as numbers. */
interface WindowRow {
  count: string | number;
  reset_at: string | number;
}

function toWindow(row: WindowRow): RateLimitWindow {
  return { count: Number(row.count), resetAt: Number(row.reset_at) };
}

/**
 * The key as stored. Keys are often built from user input (an email address): a very long one would
 * exceed the primary key index's entry size and a NUL character cannot be stored in text at all, so
 * those (and any key that looks like a digest) are stored as `#sha256:<hex>` of their UTF-8 bytes.
 */
function storedKey(key: string): string {
  if (key.length <= MAX_PLAIN_KEY_LENGTH && !key.includes("\0") && !key.startsWith(DIGEST_MARK)) return key;
  return DIGEST_MARK + createHash("sha256").update(key, "utf8").digest("hex");
}

/** The holder's token: 61 random bits with bit 61 set (always 19 digits), as the bigint `count` column holds it. */
function leaseToken(): string {
  const random = randomBytes(8).readBigUInt64BE(0);
  return String((random & ((1n << 61n) - 1n)) | (1n << 61n));
}

/** `windowMs` as whole milliseconds; a window shorter than 1 ms is a programming error. */
function windowMilliseconds(windowMs: number): number {
  if (!Number.isFinite(windowMs) || windowMs < 1) {
    throw new RangeError(`windowMs must be a finite number of milliseconds >= 1, got ${windowMs}`);
  }
  return Math.ceil(windowMs);
}
