/**
 * The one interface the rest of the package talks to, whichever driver (PGlite or `pg`) is underneath.
 *
 * @module drivers/queryable
 */

/** The rows a statement returned. */
export interface QueryResult<T> {
  rows: T[];
}

/** One SQL statement, as reported to the `onQuery` hook. `params` may hold tokens: do not log them. */
export interface HostedDbQueryEvent {
  sql: string;
  params: readonly unknown[];
}

/** A connection (or pool) that runs parameterised statements. */
export interface Queryable {
  /** Runs ONE statement with `$1…$n` placeholders. */
  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /**
   * Runs `fn` inside BEGIN … COMMIT on one connection, ROLLBACK when it throws. Inside `fn`, use only
   * the given `tx`: on PGlite the outer connection waits for the transaction to end. A nested call runs
   * in the same transaction.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Releases the connection(s). */
  close(): Promise<void>;
}

/**
 * Wraps a queryable so that every statement (also inside transactions) goes through `around`: the place
 * for the `onQuery` hook and for error translation, written once for both drivers.
 */
export function interceptQueries(
  inner: Queryable,
  around: (event: HostedDbQueryEvent, run: () => Promise<QueryResult<unknown>>) => Promise<QueryResult<unknown>>,
): Queryable {
  const wrap = (queryable: Queryable): Queryable => ({
    query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      // The driver gives back whatever row shape the SQL selects; T is the caller's statement of it.
      return around({ sql, params }, () => queryable.query<unknown>(sql, params)) as Promise<QueryResult<T>>;
    },
    transaction: (fn) => queryable.transaction((tx) => fn(wrap(tx))),
    close: () => queryable.close(),
  });
  return wrap(inner);
}
