/**
 * `pruneExpiredRows`: deletes every row of a branch that can never be used again, what
 * `authlib db prune` runs. Token writes already sweep a few expired tokens each
 * (verification-tokens.ts) and rate-limit hits sweep ended windows; this clears the backlog at once,
 * e.g. from a daily job, or after a quiet period in which nothing was written.
 *
 * Bans past their end (migration 10) go too: they no longer count.
 *
 * The authorization server's rows (migration 8) go when nothing can use them any more: authorization and
 * device codes past their expiry, signing keys no longer published, and grants that can issue no token
 * again (revoked, refresh lifetime ended, or never refreshable) whose last tokens have expired too. The
 * store does not know the access-token lifetime, so a grant is kept {@link OAUTH_TOKEN_RETENTION} past its
 * last use and its revocation: that covers every access-token lifetime up to a day (the default is ten
 * minutes) and lets a reuse of a revoked family's refresh token be recognised for that long. Clients are
 * never pruned.
 *
 * API keys (migration 9) go {@link API_KEY_RETENTION} after they expired or were revoked.
 *
 * Deletes in batches, each its own statement, so no single statement holds locks on a large table for
 * long and live sign-ins keep going meanwhile.
 *
 * @module prune
 */

import { bansTable } from "./admin.js";
import { apiKeysTable } from "./api-keys.js";
import type { HostedDbClient } from "./client.js";
import { oauthTable } from "./oauth-rows.js";
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
  /** Authorization codes past their expiry, used or not. */
  oauthAuthorizationCodes: number;
  /** Device authorizations past their expiry. */
  oauthDeviceCodes: number;
  /**
   * Grants that can issue no token again (revoked, refresh lifetime ended, or never refreshable), last used
   * and revoked more than {@link OAUTH_TOKEN_RETENTION} ago.
   */
  oauthGrants: number;
  /** Signing keys past their `expiresAt` (no longer published). */
  oauthSigningKeys: number;
  /** API keys expired, or revoked, more than 30 days ago (`API_KEY_RETENTION`). */
  apiKeys: number;
  /** Bans past their end (`authlib_user_bans`, migration 10): they no longer count. */
  userBans: number;
}

/**
 * How long an API key is kept after it expired or was revoked (a Postgres interval): a while, so its owner
 * still sees in the audit trail which key it was and a late request with it is still recognised as a key
 * that ended; nothing can use it meanwhile.
 */
export const API_KEY_RETENTION = "30 days";

/**
 * How long a grant that can issue no more tokens is kept after its last use and its revocation (a Postgres
 * interval): the longest access-token lifetime the hosted database supports without keeping a grant too
 * short for its tokens (`accessTokenMaxAge` up to a day).
 */
export const OAUTH_TOKEN_RETENTION = "1 day";

/** Settings of {@link pruneExpiredRows}. */
export interface HostedDbPruneOptions {
  /** Most rows one statement deletes. Default 10,000. */
  batchSize?: number;
}

/**
 * Deletes the expired verification tokens, expired database sessions, expired JWT session records, ended
 * rate-limit windows and the authorization server's ended codes, grants and keys, and ended API keys, of `client`'s branch (times are the database server's `now()`), and says how
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
    oauthAuthorizationCodes: await deleteInBatches(client, oauthTable(client, "codes"), `"code_hash"`, `"expires_at" <= now()`, batchSize),
    oauthDeviceCodes: await deleteInBatches(
      client,
      oauthTable(client, "deviceCodes"),
      `"device_code_hash"`,
      `"expires_at" <= now()`,
      batchSize,
    ),
    oauthGrants: await deleteInBatches(client, oauthTable(client, "grants"), `"id"`, ENDED_GRANT, batchSize),
    oauthSigningKeys: await deleteInBatches(client, oauthTable(client, "signingKeys"), `"kid"`, `"expires_at" <= now()`, batchSize),
    apiKeys: await deleteInBatches(client, apiKeysTable(client), `"id"`, ENDED_API_KEY, batchSize),
    userBans: await deleteInBatches(client, bansTable(client), `"user_id"`, `"expires_at" <= now()`, batchSize),
  };
}

/** An API key that ended (expired or revoked) more than the retention ago. */
const ENDED_API_KEY = `("expires_at" <= now() - interval '${API_KEY_RETENTION}' OR "revoked_at" <= now() - interval '${API_KEY_RETENTION}')`;

/** A grant that can issue nothing again, whose tokens have all expired (see the module's comment). */
const ENDED_GRANT = `("revoked_at" IS NOT NULL OR "expires_at" IS NULL OR "expires_at" <= now())
  AND "last_used_at" <= now() - interval '${OAUTH_TOKEN_RETENTION}'
  AND ("revoked_at" IS NULL OR "revoked_at" <= now() - interval '${OAUTH_TOKEN_RETENTION}')`;

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
