/**
 * `HostedDbClient`: where the database is, which branch to use, and typed tables over it.
 *
 * @module client
 */
import { resolve } from "node:path";
import { DEFAULT_PG_TIMEOUTS, openPgPool, type PgTimeouts, pgPoolQueryable } from "./drivers/pg.js";
import { openPglite, pgliteQueryable } from "./drivers/pglite.js";
import { type HostedDbQueryEvent, interceptQueries, type Queryable, type QueryResult } from "./drivers/queryable.js";
import type { PGliteLike, PgPoolLike } from "./drivers/shapes.js";
import { HostedDbError } from "./errors.js";
import { type HostedDbMigrationResult, runMigrations } from "./migrations.js";
import { assertBranchName } from "./sql.js";
import { createTables, type HostedDbTables } from "./tables.js";

/** The folder of the embedded database when neither `databaseURL` nor `dataDir` says otherwise. */
export const DEFAULT_DATA_DIR = ".authlib-db";

/** The branch used when neither `branch` nor `AUTHLIB_BRANCH` is set. */
export const DEFAULT_BRANCH = "main";

/**
 * Options of `HostedDbClient`. Everything is optional: without options the client uses an embedded
 * PGlite database in `./.authlib-db` and the branch `main`.
 */
export interface BaseClientOptions {
  /**
   * Where the database is; defaults to the `AUTHLIB_DATABASE_URL` environment variable.
   * - `postgres://…` or `postgresql://…`: a PostgreSQL server, through a `pg` pool;
   * - `file://<path>`: embedded PGlite persisted in that folder (relative to the working directory);
   * - `memory://`: embedded PGlite in memory, gone when the process ends;
   * - unset: embedded PGlite persisted in `dataDir`.
   */
  databaseURL?: string;
  /**
   * The branch: a Postgres schema holding its own copy of every table, so branches never see each
   * other's rows. Defaults to `AUTHLIB_BRANCH`, then `"main"`. Lower-case letters, digits, `_` and `-`.
   */
  branch?: string;
  /** Folder of the embedded database when no `databaseURL` is set. Default `.authlib-db` in the working directory. */
  dataDir?: string;
  /**
   * An open PGlite instance to use instead of opening one. It stays open on `close()`: its owner closes
   * it. Lets many clients (one per branch) share one instance.
   */
  pglite?: PGliteLike;
  /** A `pg` pool to use instead of creating one. It stays open on `close()`: its owner ends it. */
  pool?: PgPoolLike;
  /**
   * PostgreSQL only (the pool the client opens for a `postgres://` URL; a `pool` passed in keeps its own
   * settings): how many milliseconds a statement waits for a connection, a free pool slot and the
   * handshake included, before it fails with `HostedDbError("Timeout")`. Default 5000.
   */
  connectTimeoutMillis?: number;
  /**
   * PostgreSQL only, like `connectTimeoutMillis`: how many milliseconds a statement waits for the server's
   * answer before it fails with `HostedDbError("Timeout")` and its connection is dropped. Default 10000;
   * `0` waits forever (e.g. for a migration that rewrites a large table).
   */
  queryTimeoutMillis?: number;
  /**
   * Called before every SQL statement the client runs (transaction control statements excepted), for
   * tracing and for counting round trips. `params` may contain tokens: never log them.
   */
  onQuery?: (event: HostedDbQueryEvent) => void;
}

/** Where a client points, as returned by `getConfig()`. */
export interface HostedDbConfig {
  /** The branch (Postgres schema) in use. */
  branch: string;
  /**
   * The resolved location: `postgres://…` (password replaced by `***`), `file://<absolute path>` or
   * `memory://`.
   */
  databaseURL: string;
}

/** What can run statements against one branch: the client itself, or a transaction of it. */
export interface HostedDbScope {
  /** The typed tables of the branch. */
  readonly db: HostedDbTables;
  /**
   * Runs one parameterised statement (`$1…$n`). Name tables through `db.<table>.sqlName` so the query
   * stays on this branch.
   */
  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

type Target =
  | { kind: "pglite-instance"; pglite: PGliteLike; databaseURL: string }
  | { kind: "pool-instance"; pool: PgPoolLike; databaseURL: string }
  | { kind: "pglite"; dataDir: string | undefined; databaseURL: string }
  | { kind: "postgres"; connectionString: string; databaseURL: string; timeouts: PgTimeouts };

/**
 * The client of the hosted database (Postgres). Cheap to construct: the connection opens on the first
 * query. One client serves one branch; `db` gives typed tables, `migrate()` creates or upgrades them.
 *
 * @example
 * ```ts
 * const client = new HostedDbClient({ databaseURL: process.env.DATABASE_URL });
 * await client.migrate();
 * const adapter = HostedDbAdapter(client);
 * ```
 */
export class HostedDbClient implements HostedDbScope {
  /** The typed tables of this client's branch. */
  readonly db: HostedDbTables;
  /** The branch (Postgres schema) this client reads and writes. */
  readonly branch: string;
  readonly #target: Target;
  readonly #queryable: Queryable;
  #opening: Promise<Queryable> | undefined;
  #closed = false;

  /** Resolves the options (and `AUTHLIB_*` environment); throws `HostedDbError("InvalidOptions")` when they cannot work. */
  constructor(options: BaseClientOptions = {}) {
    const env = typeof process === "undefined" ? {} : process.env;
    this.branch = assertBranchName(options.branch ?? nonEmpty(env.AUTHLIB_BRANCH) ?? DEFAULT_BRANCH);
    this.#target = resolveTarget(options, nonEmpty(env.AUTHLIB_DATABASE_URL));
    const lazy: Queryable = {
      query: async (sql, params) => (await this.#open()).query(sql, params),
      transaction: async (fn) => (await this.#open()).transaction(fn),
      close: async () => {},
    };
    const onQuery = options.onQuery;
    this.#queryable = interceptQueries(lazy, async (event, run) => {
      onQuery?.(event);
      try {
        return await run();
      } catch (error) {
        throw explainMissingMigration(error, this.branch);
      }
    });
    this.db = createTables(this.#queryable, this.branch);
  }

  /** The branch and the resolved database location. */
  async getConfig(): Promise<HostedDbConfig> {
    return { branch: this.branch, databaseURL: this.#target.databaseURL };
  }

  /** Runs one parameterised statement on this branch's database. */
  query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    return this.#queryable.query<T>(sql, params);
  }

  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Use only the
   * `tx` it receives (its `db` and `query`) inside: on PGlite, statements on the client itself wait until
   * the transaction ends.
   */
  transaction<T>(fn: (tx: HostedDbScope) => Promise<T>): Promise<T> {
    return this.#queryable.transaction((tx) => fn({ db: createTables(tx, this.branch), query: (sql, params) => tx.query(sql, params) }));
  }

  /** Creates or upgrades this branch's tables. Idempotent; see `runMigrations`. */
  migrate(): Promise<HostedDbMigrationResult> {
    return runMigrations(this.#queryable, this.branch);
  }

  /**
   * Closes the connection the client opened; the client cannot be used afterwards. A PGlite instance or
   * pool passed in options stays open.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const opening = this.#opening;
    this.#opening = undefined;
    // Nothing to close when opening failed.
    const queryable = await opening?.catch(() => undefined);
    await queryable?.close();
  }

  #open(): Promise<Queryable> {
    if (this.#closed) return Promise.reject(new HostedDbError("Closed", "This HostedDbClient was closed; create a new one."));
    if (!this.#opening) {
      const opening = openTarget(this.#target);
      this.#opening = opening;
      // A failed open (server down, folder locked) is retried by the next query rather than cached.
      opening.catch(() => {
        if (this.#opening === opening) this.#opening = undefined;
      });
    }
    return this.#opening;
  }
}

async function openTarget(target: Target): Promise<Queryable> {
  switch (target.kind) {
    case "pglite-instance":
      return pgliteQueryable(target.pglite, false);
    case "pool-instance":
      return pgPoolQueryable(target.pool, false);
    case "pglite":
      return openPglite(target.dataDir);
    case "postgres":
      return openPgPool(target.connectionString, target.timeouts);
  }
}

function resolveTarget(options: BaseClientOptions, envURL: string | undefined): Target {
  if (options.pglite && options.pool) {
    throw new HostedDbError("InvalidOptions", "Pass either `pglite` or `pool` to HostedDbClient, not both.");
  }
  if (options.pglite) {
    // PGlite keeps the dataDir it was given: a path, `file://<path>`, `memory://` or nothing (memory).
    const dataDir = options.pglite.dataDir?.replace(/^file:\/\//, "");
    const persisted = dataDir !== undefined && dataDir !== "" && !dataDir.startsWith("memory://");
    return { kind: "pglite-instance", pglite: options.pglite, databaseURL: persisted ? `file://${resolve(dataDir)}` : "memory://" };
  }
  if (options.pool) {
    return { kind: "pool-instance", pool: options.pool, databaseURL: describePool(options.pool) };
  }
  const url = nonEmpty(options.databaseURL) ?? envURL;
  if (url === undefined) {
    const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
    return { kind: "pglite", dataDir, databaseURL: `file://${dataDir}` };
  }
  if (url.startsWith("memory://")) return { kind: "pglite", dataDir: undefined, databaseURL: "memory://" };
  if (url.startsWith("file://")) {
    const path = url.slice("file://".length);
    if (path === "")
      throw new HostedDbError(
        "InvalidOptions",
        "databaseURL `file://` needs a folder: `file://./.authlib-db` or `file:///var/lib/app/db`.",
      );
    const dataDir = resolve(decodeURIComponent(path));
    return { kind: "pglite", dataDir, databaseURL: `file://${dataDir}` };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return { kind: "postgres", connectionString: url, databaseURL: redactPassword(url), timeouts: pgTimeouts(options) };
  }
  throw new HostedDbError(
    "InvalidOptions",
    `Unsupported databaseURL scheme in ${JSON.stringify(redactPassword(url))}: use postgres://, postgresql://, file:// or memory:// (or leave it unset for ./${DEFAULT_DATA_DIR}).`,
  );
}

/** The timeouts of the pool the client opens; throws `InvalidOptions` for a value that is not a count of milliseconds. */
function pgTimeouts(options: BaseClientOptions): PgTimeouts {
  const timeouts = {
    connectTimeoutMillis: options.connectTimeoutMillis ?? DEFAULT_PG_TIMEOUTS.connectTimeoutMillis,
    queryTimeoutMillis: options.queryTimeoutMillis ?? DEFAULT_PG_TIMEOUTS.queryTimeoutMillis,
  };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new HostedDbError("InvalidOptions", `${name} must be a whole number of milliseconds (0 or more), not ${String(value)}.`);
    }
  }
  // pg reads a connect timeout of 0 as "wait forever": a connection must be bounded.
  if (timeouts.connectTimeoutMillis === 0) {
    throw new HostedDbError("InvalidOptions", "connectTimeoutMillis must be at least 1: a connection that never opens must fail.");
  }
  return timeouts;
}

function describePool(pool: PgPoolLike): string {
  const { connectionString, host, port, database, user } = pool.options;
  if (connectionString) return redactPassword(connectionString);
  const userPart = user ? `${encodeURIComponent(user)}@` : "";
  return `postgres://${userPart}${host ?? "localhost"}:${port ?? 5432}/${database ?? ""}`;
}

/** The URL with its password replaced by `***`: the config is for display and logs. */
function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    let redacted = false;
    if (parsed.password !== "") {
      parsed.password = "***";
      redacted = true;
    }
    // pg also reads passwords from the query string.
    for (const key of ["password", "sslpassword"]) {
      if (parsed.searchParams.has(key)) {
        parsed.searchParams.set(key, "***");
        redacted = true;
      }
    }
    return redacted ? parsed.toString() : url;
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** Postgres error codes: undefined_table, invalid_schema_name. */
const MISSING_RELATION_CODES = new Set(["42P01", "3F000"]);

function explainMissingMigration(error: unknown, branch: string): unknown {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  if (typeof code !== "string" || !MISSING_RELATION_CODES.has(code)) return error;
  const detail = error instanceof Error ? ` (${error.message})` : "";
  return new HostedDbError(
    "MissingMigration",
    `The tables of branch "${branch}" do not exist yet${detail}: run \`npx authlib-db migrate\` or \`await client.migrate()\` first.`,
    { cause: error },
  );
}
