/**
 * `hostedDbSessionStore`: the records of signed-in sessions (session control) in the hosted database, so
 * every instance using the same database and branch lists and ends the same sessions.
 *
 * Two kinds of sessions, two tables. A JWT session's record is a row of `authlib_session_records`
 * (migration 4), keyed by the token's `sid`. A database session's record is its own `authlib_sessions`
 * row: its `id` is the record id and its token never leaves the database. Listing and deleting read both
 * tables in one statement, so a user sees and ends every session whichever strategy made it; `get`
 * reads JWT records only, as only JWT sessions are checked by id (a database session is found by its
 * token). Each operation is ONE statement, and every "still live?" is the database server's `now()`, so
 * instances with skewed clocks agree on when a session ended.
 *
 * @module session-store
 */
import type { SessionRecord, SessionRegistry } from "@authlib/core";
import type { HostedDbClient, HostedDbScope } from "./client.js";
import { quoteIdentifier } from "./sql.js";

/** The table of JWT sessions' records (created by migration 4). */
export const SESSION_RECORDS_TABLE = "authlib_session_records";

/** The columns of a record, in the order both tables are read in. */
const RECORD_COLUMNS = `"id", "user_id", "created_at", "last_seen_at", "expires", "user_agent", "client_address", "provider"`;

/** The same columns from `authlib_sessions`: a row written before migration 4 was last seen when it was made. */
const SESSION_ROW_COLUMNS = `"id", "user_id", "created_at", COALESCE("last_seen_at", "created_at") AS "last_seen_at", "expires", "user_agent", "client_address", "provider"`;

interface RecordRow {
  id: unknown;
  user_id: unknown;
  created_at: unknown;
  last_seen_at: unknown;
  expires: unknown;
  user_agent: unknown;
  client_address: unknown;
  provider: unknown;
}

/** The two tables of `branch`, quoted for SQL text. */
function tablesOf(client: HostedDbClient): { records: string; sessions: string } {
  return {
    records: `${quoteIdentifier(client.branch)}.${quoteIdentifier(SESSION_RECORDS_TABLE)}`,
    sessions: client.db.authlib_sessions.sqlName,
  };
}

/**
 * Session records in `client`'s branch: pass it as `session.store` with JWT sessions, or use
 * `HostedDbAdapter(client)`, whose session record methods are this store. Run `client.migrate()` first
 * (migration 4); before that, calls fail with `HostedDbError("MissingMigration")`. Database errors reach
 * the caller.
 */
export function hostedDbSessionStore(client: HostedDbClient): SessionRegistry {
  const sql = sessionRecordStatements(tablesOf(client));

  return {
    async create(record) {
      await client.query(sql.create, [
        record.id,
        record.userId,
        record.createdAt,
        record.lastSeenAt,
        record.expires,
        record.userAgent,
        record.clientAddress,
        record.provider,
      ]);
    },

    async get(userId, id) {
      const { rows } = await client.query<RecordRow>(sql.get, [id, userId]);
      return rows[0] === undefined ? null : toSessionRecord(rows[0]);
    },

    async listByUser(userId) {
      const { rows } = await client.query<RecordRow>(sql.listByUser, [userId]);
      return rows.map(toSessionRecord);
    },

    async touch(userId, id, lastSeenAt, expires) {
      await client.query(sql.touch, [id, userId, lastSeenAt, expires]);
    },

    async delete(userId, ids, except) {
      // An expired row goes too, but is not answered: it had ended already, nobody revoked it.
      const { rows } = await client.query<RecordRow>(sql.delete, [userId, ids === undefined ? null : [...ids], except ?? null]);
      return rows.map(toSessionRecord);
    },
  };
}

/** The store's statements over the two tables (quoted), each one statement. */
function sessionRecordStatements({ records, sessions }: { records: string; sessions: string }) {
  return {
    create: `INSERT INTO ${records} (${RECORD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    get: `SELECT ${RECORD_COLUMNS} FROM ${records} WHERE "id" = $1 AND "user_id" = $2 AND "expires" > now()`,
    listByUser: `SELECT ${RECORD_COLUMNS} FROM ${records} WHERE "user_id" = $1 AND "expires" > now()
         UNION ALL
         SELECT ${SESSION_ROW_COLUMNS} FROM ${sessions} WHERE "user_id" = $1 AND "expires" > now()`,
    // authlib touches a database session by its row id when it extends it (after `updateSession`), so
    // both tables are written; the id is in at most one of them.
    touch: `WITH jwt AS (
           UPDATE ${records} SET "last_seen_at" = $3, "expires" = $4 WHERE "id" = $1 AND "user_id" = $2 RETURNING 1
         )
         UPDATE ${sessions} SET "last_seen_at" = $3, "expires" = $4, "updated_at" = now(), "version" = "version" + 1
         WHERE "id" = $1 AND "user_id" = $2`,
    delete: `WITH jwt AS (
           DELETE FROM ${records}
           WHERE "user_id" = $1 AND ($2::text[] IS NULL OR "id" = ANY($2::text[])) AND "id" IS DISTINCT FROM $3::text
           RETURNING ${RECORD_COLUMNS}
         ), db AS (
           DELETE FROM ${sessions}
           WHERE "user_id" = $1 AND ($2::text[] IS NULL OR "id" = ANY($2::text[])) AND "id" IS DISTINCT FROM $3::text
           RETURNING ${SESSION_ROW_COLUMNS}
         )
         SELECT * FROM jwt WHERE "expires" > now() UNION ALL SELECT * FROM db WHERE "expires" > now()`,
  };
}

/**
 * Deletes every JWT session record of `userId` through `scope` (a transaction of `client`), for
 * `deleteUser` and `deleteSessionsByUserId`; resolves how many rows it deleted, expired ones included.
 */
export async function deleteUserSessionRecords(scope: HostedDbScope, client: HostedDbClient, userId: string): Promise<number> {
  const { rows } = await scope.query(`DELETE FROM ${tablesOf(client).records} WHERE "user_id" = $1 RETURNING 1`, [userId]);
  return rows.length;
}

function toSessionRecord(row: RecordRow): SessionRecord {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    createdAt: toDate(row.created_at),
    lastSeenAt: toDate(row.last_seen_at),
    expires: toDate(row.expires),
    userAgent: nullableText(row.user_agent),
    clientAddress: nullableText(row.client_address),
    provider: nullableText(row.provider),
  };
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
