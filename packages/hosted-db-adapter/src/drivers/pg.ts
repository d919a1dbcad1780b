/**
 * The `pg` driver: a connection pool to a PostgreSQL server.
 *
 * @module drivers/pg
 */

import type { Queryable, QueryResult } from "./queryable.js";
import type { PgPoolClientLike, PgPoolLike } from "./shapes.js";

/**
 * A queryable over a `pg` pool. `owned`: whether `close()` ends the pool (true when the client created
 * it, false when the caller passed it in and keeps it).
 */
export function pgPoolQueryable(pool: PgPoolLike, owned: boolean): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await pool.query(sql, [...params]);
      return { rows: result.rows };
    },
    async transaction(fn) {
      const connection = await pool.connect();
      let broken = false;
      try {
        await connection.query("BEGIN");
        const result = await fn(connectionQueryable(connection));
        await connection.query("COMMIT");
        return result;
      } catch (error) {
        try {
          await connection.query("ROLLBACK");
        } catch {
          // The connection itself failed: do not hand it back to the pool.
          broken = true;
        }
        throw error;
      } finally {
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
      const result = await connection.query(sql, [...params]);
      return { rows: result.rows };
    },
    transaction: (fn) => fn(self),
    // The connection goes back to the pool when the outer transaction ends.
    close: async () => {},
  };
  return self;
}

/**
 * Creates a pool for a `postgres://` / `postgresql://` URL. `pg` is imported here, on first use, so
 * embedded setups never load it.
 */
export async function openPgPool(connectionString: string): Promise<Queryable> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString });
  // An idle connection that dies emits "error" on the pool, which would crash the process when nobody
  // listens; the next query reports the failure to its caller instead.
  pool.on("error", () => {});
  return pgPoolQueryable(pool, true);
}
