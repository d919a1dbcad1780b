/**
 * The PGlite driver: Postgres compiled to WebAssembly, in this process. PGlite is ONE connection; it
 * queues statements itself and runs a transaction exclusively.
 *
 * @module drivers/pglite
 */

import { importDriver } from "../errors.js";
import type { Queryable, QueryResult } from "./queryable.js";
import type { PGliteLike, PGliteTransactionLike } from "./shapes.js";

/**
 * A queryable over a PGlite instance. `owned`: whether `close()` closes the instance (true when the
 * client opened it, false when the caller passed it in and keeps it).
 */
export function pgliteQueryable(db: PGliteLike, owned: boolean): Queryable {
  const self: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await db.query<T>(sql, [...params]);
      return { rows: result.rows };
    },
    transaction: (fn) => db.transaction((tx) => fn(transactionQueryable(tx))),
    async close() {
      if (owned && !db.closed) await db.close();
    },
  };
  return self;
}

function transactionQueryable(tx: PGliteTransactionLike): Queryable {
  const self: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await tx.query<T>(sql, [...params]);
      return { rows: result.rows };
    },
    transaction: (fn) => fn(self),
    // The transaction ends when its callback returns; the instance belongs to the outer queryable.
    close: async () => {},
  };
  return self;
}

/**
 * Opens a PGlite database: in memory when `dataDir` is undefined, else persisted in that folder (created
 * when missing). PGlite is imported here, on first use, so server-only setups never load the WASM.
 */
export async function openPglite(dataDir: string | undefined): Promise<Queryable> {
  const { PGlite } = await importDriver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
  if (dataDir !== undefined) {
    const { mkdir } = await import("node:fs/promises");
    await mkdir(dataDir, { recursive: true });
  }
  const db = await PGlite.create(dataDir);
  return pgliteQueryable(db, true);
}
