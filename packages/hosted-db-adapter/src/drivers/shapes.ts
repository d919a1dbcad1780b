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
  query(text: string, values?: unknown[]): Promise<DriverResult<any>>;
  release(destroy?: boolean | Error): void;
  /** A checked-out connection that fails between statements emits `error`: unheard, it ends the process. */
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** A `pg` `Pool` (`new pg.Pool(...)`). */
export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<DriverResult<any>>;
  connect(): Promise<PgPoolClientLike>;
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
  query<T>(query: string, params?: any[]): Promise<DriverResult<T>>;
}

/** A PGlite instance (`new PGlite(...)` / `await PGlite.create(...)` from `@electric-sql/pglite`). */
export interface PGliteLike {
  query<T>(query: string, params?: any[]): Promise<DriverResult<T>>;
  transaction<T>(callback: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly closed: boolean;
  readonly dataDir?: string;
}
