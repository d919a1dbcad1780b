/**
 * Writing verification tokens (email sign-in links and used passkey challenges) so that the table stays
 * bounded without a scheduled job.
 *
 * - A token is written only when no LIVE token has the same identifier and token: then the write
 *   returns `null`. authlib claims a used passkey challenge this way (the second claim of an answer
 *   finds the first one's row), so a replay is refused without an error from the database. An expired
 *   row with the same key is replaced in place.
 * - Every write deletes up to {@link SWEEP_PER_WRITE} expired tokens in the same statement (oldest
 *   expiry first, through the `expires` index of migration 3). Each write adds one row and removes up to
 *   that many expired ones, so expired rows cannot pile up while tokens are written, at a bounded cost
 *   per write. `authlib db prune` removes every expired row at once (see prune.ts).
 *
 * @module verification-tokens
 */
import type { VerificationToken } from "@authlib/core/adapters";
import type { HostedDbClient } from "./client.js";
import type { AuthlibVerificationTokenRecord } from "./schema.js";

/** Most expired verification tokens one token write deletes. */
export const SWEEP_PER_WRITE = 16;

/**
 * Writes `token` unless a live token with the same identifier and token exists (then `null`), and
 * deletes up to {@link SWEEP_PER_WRITE} expired tokens, in one statement.
 */
export async function createVerificationTokenOnce(
  client: HostedDbClient,
  token: VerificationToken,
): Promise<AuthlibVerificationTokenRecord | null> {
  const table = client.db.authlib_verificationTokens;
  const t = table.sqlName;
  // The sweep skips the key being written, so one statement never touches a row twice; SKIP LOCKED:
  // never wait for a row another statement is writing. A data-modifying WITH runs to completion even
  // though the INSERT does not read it.
  const sql = `
    WITH swept AS (
      DELETE FROM ${t} WHERE "id" IN (
        SELECT "id" FROM ${t}
        WHERE "expires" <= now() AND NOT ("identifier" = $1 AND "token" = $2)
        ORDER BY "expires" LIMIT ${SWEEP_PER_WRITE} FOR UPDATE SKIP LOCKED
      ) RETURNING 1
    )
    INSERT INTO ${t} AS v ("identifier", "token", "expires") VALUES ($1, $2, $3)
    ON CONFLICT ("identifier", "token") DO UPDATE
      SET "expires" = EXCLUDED."expires", "created_at" = now(), "updated_at" = now(), "version" = v."version" + 1
      WHERE v."expires" <= now()
    RETURNING ${table.selectColumns("v")}`;
  const { rows } = await client.query<Record<string, unknown>>(sql, [token.identifier, token.token, token.expires]);
  return rows[0] === undefined ? null : table.fromRow(rows[0]);
}
