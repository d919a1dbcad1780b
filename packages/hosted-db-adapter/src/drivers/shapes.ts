/**
 * The few members of a `pg` pool and a PGlite instance the client uses, declared here so that the
 * package's public types import neither `pg` nor `@electric-sql/pglite` (both optional peers: an app
 * without `@types/pg` must still type-check without `skipLibCheck`). A real `pg.Pool` and a real `PGlite`
 * are assignable to them.
 *
 * @module drivers/shapes
 */

/** The rows of a statement, as both drivers return them. */
export interface DriverResult<T> {
  rows: T[];
}

/** A `pg` pool's client (a checked-out connection). */
export interface PgPoolClientLike {
  /** Runs one statement with its parameters (`$1`, `$2`, …). */
  query(text: string, values?: unknown[]): Promise<DriverResult<any>>;
  /** Gives the connection back to the pool (or destroys it). */
  release(destroy?: boolean | Error): void;
  /** A checked-out connection that fails between statements emits `error`: unheard, it ends the process. */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** Stops listening (once the connection is back in the pool, whose own listener takes over). */
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** A `pg` `Pool` (`new pg.Pool(...)`). */
export interface PgPoolLike {
  /** Runs one statement on any free connection. */
  query(text: string, values?: unknown[]): Promise<DriverResult<any>>;
  /** Checks out a connection (for a transaction). */
  connect(): Promise<PgPoolClientLike>;
  /** Closes every connection of the pool. */
  end(): Promise<void>;
  readonly ended: boolean;
  /** Where the pool connects (shown, password hidden, by `getConfig()`). */
  readonly options: {
    connectionString?: string | undefined;
    host?: string | undefined;
    port?: number | undefined;
    database?: string | undefined;
    user?: string | undefined;
  };
}

/** A PGlite transaction. */
export interface PGliteTransactionLike {
  /** Runs one statement inside the transaction. */
  query<T>(query: string, params?: any[]): Promise<DriverResult<T>>;
}

/** A PGlite instance (`new PGlite(...)` / `await PGlite.create(...)` from `@electric-sql/pglite`). */
export interface PGliteLike {
  /** Runs one statement with its parameters. */
  query<T>(query: string, params?: any[]): Promise<DriverResult<T>>;
  /** Runs `callback` in a transaction: committed when it resolves, rolled back when it rejects. */
  transaction<T>(callback: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>;
  /** Closes the database. */
  close(): Promise<void>;
  readonly closed: boolean;
  readonly dataDir?: string;
}
