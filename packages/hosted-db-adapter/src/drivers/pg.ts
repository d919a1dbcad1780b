/**
 * The `pg` driver: a connection pool to a PostgreSQL server.
 *
 * `pg` waits forever by default, for a connection and for an answer: a database host that stops answering
 * (frozen, partitioned, overloaded) would hang every request that touches it. The pool this driver opens
 * itself is bounded by {@link PgTimeouts}, and `pg`'s timeout failures become `HostedDbError("Timeout")`.
 *
 * @module drivers/pg
 */

import { HostedDbError, importDriver } from "../errors.js";
import type { Queryable, QueryResult } from "./queryable.js";
import type { PgPoolClientLike, PgPoolLike } from "./shapes.js";

/** How long the pool this driver opens waits, in milliseconds. */
export interface PgTimeouts {
  /** For a connection: a free pool slot plus the connection handshake. */
  connectTimeoutMillis: number;
  /** For the answer to one statement; 0 waits forever. */
  queryTimeoutMillis: number;
}

/** The bounds of a pool the client opens when its options say nothing else. */
export const DEFAULT_PG_TIMEOUTS: PgTimeouts = { connectTimeoutMillis: 5_000, queryTimeoutMillis: 10_000 };

/**
 * The messages `pg` (8.x) and `pg-pool` give their own timeouts (`connectionTimeoutMillis`,
 * `query_timeout`); a test against a real server pins them.
 */
const PG_TIMEOUT_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
  "Query read timeout",
];

/** True when `error` is one of `pg`'s own timeouts (or already translated into one). */
function isTimeout(error: unknown): boolean {
  if (error instanceof HostedDbError) return error.code === "Timeout";
  return error instanceof Error && PG_TIMEOUT_MESSAGES.includes(error.message);
}

/** `error` as `HostedDbError("Timeout")` when it is one of `pg`'s timeouts; anything else unchanged. */
function explainTimeout(error: unknown): unknown {
  if (!isTimeout(error) || error instanceof HostedDbError) return error;
  const phase = (error as Error).message === "Query read timeout" ? "answer a statement" : "open a connection";
  return new HostedDbError(
    "Timeout",
    `PostgreSQL did not ${phase} in time; the connection was dropped (a statement that timed out may still complete on the server).`,
    { cause: error },
  );
}

/**
 * A queryable over a `pg` pool. `owned`: whether `close()` ends the pool (true when the client created
 * it, false when the caller passed it in and keeps it).
 */
export function pgPoolQueryable(pool: PgPoolLike, owned: boolean): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      try {
        // pg-pool destroys a connection whose statement failed this way rather than reusing it.
        const result = await pool.query(sql, [...params]);
        return { rows: result.rows };
      } catch (error) {
        throw explainTimeout(error);
      }
    },
    async transaction(fn) {
      let connection: PgPoolClientLike;
      try {
        connection = await pool.connect();
      } catch (error) {
        throw explainTimeout(error);
      }
      let broken = false;
      // While the connection is ours, pg-pool no longer listens for its errors: a server that goes away
      // between two statements of the transaction would raise an unheard "error" event, which ends the
      // process. Heard here, it marks the connection broken; the next statement fails on its own.
      function onConnectionError(): void {
        broken = true;
      }
      connection.on("error", onConnectionError);
      try {
        await connection.query("BEGIN");
        const result = await fn(connectionQueryable(connection));
        await connection.query("COMMIT");
        return result;
      } catch (error) {
        // After a timeout the connection still waits for the abandoned answer: a ROLLBACK would queue
        // behind it and time out too. Dropping the connection rolls the transaction back on the server.
        if (isTimeout(error)) broken = true;
        if (!broken) {
          try {
            await connection.query("ROLLBACK");
          } catch {
            // The connection itself failed: do not hand it back to the pool.
            broken = true;
          }
        }
        throw explainTimeout(error);
      } finally {
        connection.off("error", onConnectionError);
        connection.release(broken);
      }
    },
    async close() {
      if (owned && !pool.ended) await pool.end();
    },
  };
}

function connectionQueryable(connection: PgPoolClientLike): Queryable {
  const self: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      try {
        const result = await connection.query(sql, [...params]);
        return { rows: result.rows };
      } catch (error) {
        throw explainTimeout(error);
      }
    },
    transaction: (fn) => fn(self),
    // The connection goes back to the pool when the outer transaction ends.
    close: async () => {},
  };
  return self;
}

/**
 * Creates a pool for a `postgres://` / `postgresql://` URL, bounded by `timeouts`. `pg` is imported here,
 * on first use, so embedded setups never load it.
 */
export async function openPgPool(connectionString: string, timeouts: PgTimeouts = DEFAULT_PG_TIMEOUTS): Promise<Queryable> {
  const { default: pg } = await importDriver("pg", () => import("pg"));
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: timeouts.connectTimeoutMillis,
    // Left unset, pg waits for answers forever.
    query_timeout: timeouts.queryTimeoutMillis > 0 ? timeouts.queryTimeoutMillis : undefined,
  });
  // An idle connection that dies emits "error" on the pool, which would crash the process when nobody
  // listens; the next query reports the failure to its caller instead.
  pool.on("error", () => {});
  return pgPoolQueryable(pool, true);
}
