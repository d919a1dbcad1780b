/**
 * `pruneExpiredRows`: deletes every row of a branch that can never be used again, what
 * `authlib db prune` runs. Token writes already sweep a few expired tokens each
 * (verification-tokens.ts) and rate-limit hits sweep ended windows; this clears the backlog at once,
 * e.g. from a daily job, or after a quiet period in which nothing was written.
 *
 * Deletes in batches, each its own statement, so no single statement holds locks on a large table for
 * long and live sign-ins keep going meanwhile.
 *
 * @module prune
 */
import type { HostedDbClient } from "./client.js";
import { RATE_LIMIT_TABLE } from "./rate-limit-store.js";
import { SESSION_RECORDS_TABLE } from "./session-store.js";
import { quoteIdentifier } from "./sql.js";

/** How many rows {@link pruneExpiredRows} deleted, per kind. */
export interface HostedDbPruneResult {
  /** Expired verification tokens: email sign-in links never used, and used passkey challenges past their expiry. */
  verificationTokens: number;
  /** Database sessions past their expiry (their join rows go with them). */
  sessions: number;
  /** Records of JWT sessions past their expiry (`authlib_session_records`). */
  sessionRecords: number;
  /** Rate-limit windows that ended. */
  rateLimitWindows: number;
}

/** Settings of {@link pruneExpiredRows}. */
export interface HostedDbPruneOptions {
  /** Most rows one statement deletes. Default 10,000. */
  batchSize?: number;
}

/**
 * Deletes the expired verification tokens, expired database sessions, expired JWT session records and
 * ended rate-limit windows of `client`'s branch (times are the database server's `now()`), and says how
 * many of each. Needs the branch migrated (`HostedDbError("MissingMigration")` otherwise).
 */
export async function pruneExpiredRows(client: HostedDbClient, options: HostedDbPruneOptions = {}): Promise<HostedDbPruneResult> {
  const batchSize = options.batchSize ?? 10_000;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError("pruneExpiredRows: batchSize must be a whole number >= 1.");
  const { authlib_verificationTokens: tokens, authlib_sessions: sessions } = client.db;
  const rateLimits = `${quoteIdentifier(client.branch)}.${quoteIdentifier(RATE_LIMIT_TABLE)}`;
  const sessionRecords = `${quoteIdentifier(client.branch)}.${quoteIdentifier(SESSION_RECORDS_TABLE)}`;
  return {
    verificationTokens: await deleteInBatches(client, tokens.sqlName, `"id"`, `"expires" <= now()`, batchSize),
    sessions: await deleteInBatches(client, sessions.sqlName, `"id"`, `"expires" <= now()`, batchSize),
    sessionRecords: await deleteInBatches(client, sessionRecords, `"id"`, `"expires" <= now()`, batchSize),
    rateLimitWindows: await deleteInBatches(client, rateLimits, `"key"`, `"reset_at" <= now()`, batchSize),
  };
}

/** Deletes the rows of `table` matching `condition`, at most `batchSize` per statement; returns how many. */
async function deleteInBatches(client: HostedDbClient, table: string, key: string, condition: string, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    // The condition is checked again on the locked rows, so a row renewed meanwhile stays.
    const { rows } = await client.query(
      `DELETE FROM ${table} WHERE ${key} IN (
        SELECT ${key} FROM ${table} WHERE ${condition} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED
      ) AND ${condition} RETURNING 1`,
    );
    total += rows.length;
    if (rows.length < batchSize) return total;
  }
}
