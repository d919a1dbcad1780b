/**
 * Reading an Auth.js adapter's tables for `importFromAuthjs`: one consistent snapshot (a read-only,
 * repeatable-read transaction) of `@auth/pg-adapter`'s or `@auth/xata-adapter`'s tables, as plain rows
 * with text ids.
 *
 * @module import-authjs-source
 */
import type { PgPoolClientLike, PgPoolLike } from "./drivers/shapes.js";
import { HostedDbError } from "./errors.js";
import { quoteIdentifier } from "./sql.js";

/** Which Auth.js adapter wrote the tables. */
export type AuthjsTables = "pg-adapter" | "xata";

/** Where the Auth.js tables are. */
export interface AuthjsSource {
  /** The database holding the Auth.js tables: a `postgres://` URL or a `pg` pool. */
  from: string | PgPoolLike;
  /** The Postgres schema of the Auth.js tables. Default `public`. */
  schema?: string;
  /** Which adapter's tables: `pg-adapter` (`users`, `accounts`, …) or `xata` (`nextauth_*`). */
  tables: AuthjsTables;
}

/** An Auth.js user. */
export interface UserRow {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: Date | null;
  image: string | null;
}

/** An Auth.js account; `expires_at` as text (bigint). */
export interface AccountRow {
  id: string;
  userId: string;
  type: string;
  provider: string;
  providerAccountId: string;
  access_token: string | null;
  expires_at: string | null;
  id_token: string | null;
  refresh_token: string | null;
  scope: string | null;
  session_state: string | null;
  token_type: string | null;
}

/** An Auth.js database session. */
export interface SessionRow {
  id: string;
  userId: string;
  sessionToken: string;
  expires: Date;
}

/** An Auth.js authenticator; `id` is its credential ID, `counter` text (bigint). */
export interface AuthenticatorRow {
  id: string;
  userId: string;
  providerAccountId: string;
  credentialPublicKey: string;
  counter: string;
  credentialDeviceType: string;
  credentialBackedUp: boolean;
  transports: string | null;
}

/** Everything read from the Auth.js tables. */
export interface SourceRows {
  users: UserRow[];
  accounts: AccountRow[];
  sessions: SessionRow[];
  authenticators: AuthenticatorRow[];
  pendingSignInLinks: number;
}

/** Reads every source table in one read-only, repeatable-read transaction: one consistent snapshot. */
export async function readSource(options: AuthjsSource): Promise<SourceRows> {
  if (options.tables !== "pg-adapter" && options.tables !== "xata") {
    throw new HostedDbError("InvalidOptions", `tables must be "pg-adapter" or "xata", not ${JSON.stringify(options.tables)}.`);
  }
  const schema = options.schema ?? "public";
  const owned = typeof options.from === "string";
  const pool = typeof options.from === "string" ? await openSourcePool(options.from) : options.from;
  let connection: PgPoolClientLike | undefined;
  try {
    connection = await pool.connect();
    await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const queries = options.tables === "pg-adapter" ? await pgAdapterQueries(connection, schema) : await xataQueries(connection, schema);
    const run = async <T>(sql: string, table: string): Promise<T[]> => {
      try {
        return (await (connection as PgPoolClientLike).query(sql)).rows as T[];
      } catch (error) {
        throw explainMissingSource(error, schema, table, options.tables);
      }
    };
    const rows: SourceRows = {
      users: await run<UserRow>(queries.users, queries.names.users),
      accounts: await run<AccountRow>(queries.accounts, queries.names.accounts),
      sessions: await run<SessionRow>(queries.sessions, queries.names.sessions),
      authenticators: queries.authenticators ? await run<AuthenticatorRow>(queries.authenticators, "authenticators") : [],
      pendingSignInLinks: Number(
        (await run<{ count: string }>(queries.pendingSignInLinks, queries.names.verificationTokens))[0]?.count ?? 0,
      ),
    };
    await connection.query("COMMIT");
    return rows;
  } catch (error) {
    // Hand the connection back outside any transaction (a pool passed in is the caller's).
    await connection?.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    connection?.release();
    if (owned) await pool.end();
  }
}

interface SourceQueries {
  names: { users: string; accounts: string; sessions: string; verificationTokens: string };
  users: string;
  accounts: string;
  sessions: string;
  authenticators?: string;
  pendingSignInLinks: string;
}

/** The token columns of an Auth.js account row (same names in both adapters), qualified by `alias`. */
function accountTokenColumns(alias: string): string {
  const plain = ["access_token", "id_token", "refresh_token", "scope", "session_state", "token_type"];
  return [`${alias}."expires_at"::text AS "expires_at"`, ...plain.map((c) => `${alias}.${quoteIdentifier(c)}`)].join(", ");
}

/** `@auth/pg-adapter`'s documented schema: SERIAL ids, `"userId"` integer columns. */
async function pgAdapterQueries(connection: PgPoolClientLike, schema: string): Promise<SourceQueries> {
  const s = quoteIdentifier(schema);
  // Not in the adapter's documented schema; imported when an app added it with Auth.js's column names.
  const { rows } = await connection.query("SELECT to_regclass($1) IS NOT NULL AS present", [`${s}."authenticators"`]);
  const hasAuthenticators = rows[0]?.present === true;
  return {
    names: { users: "users", accounts: "accounts", sessions: "sessions", verificationTokens: "verification_token" },
    users: `SELECT "id"::text AS "id", "name", "email", "emailVerified", "image" FROM ${s}."users" ORDER BY "id"`,
    accounts: `SELECT a."id"::text AS "id", a."userId"::text AS "userId", a."type", a."provider", a."providerAccountId",
      ${accountTokenColumns("a")} FROM ${s}."accounts" a ORDER BY a."id"`,
    sessions: `SELECT "id"::text AS "id", "userId"::text AS "userId", "sessionToken", "expires" FROM ${s}."sessions" ORDER BY "id"`,
    authenticators: hasAuthenticators
      ? `SELECT "credentialID" AS "id", "userId"::text AS "userId", "providerAccountId", "credentialPublicKey",
          "counter"::text AS "counter", "credentialDeviceType", "credentialBackedUp", "transports"
          FROM ${s}."authenticators" ORDER BY "credentialID"`
      : undefined,
    pendingSignInLinks: `SELECT count(*) AS "count" FROM ${s}."verification_token" WHERE "expires" > now()`,
  };
}

/**
 * `@auth/xata-adapter`'s `nextauth_*` tables as a Postgres-enabled Xata branch exposes them: the record id
 * in `xata_id` (older branches: `id`), links as the linked record's id; an account's or session's user
 * falls back to the `nextauth_users_accounts` / `nextauth_users_sessions` link tables.
 */
async function xataQueries(connection: PgPoolClientLike, schema: string): Promise<SourceQueries> {
  const s = quoteIdentifier(schema);
  const { rows } = await connection.query(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'nextauth_users' AND column_name IN ('xata_id', 'id')`,
    [schema],
  );
  const names = rows.map((r: { column_name: string }) => r.column_name);
  if (names.length === 0) {
    throw new HostedDbError("InvalidOptions", `No Auth.js Xata table ${schema}.nextauth_users (with an xata_id or id column) was found.`);
  }
  const id = quoteIdentifier(names.includes("xata_id") ? "xata_id" : "id");
  return {
    names: {
      users: "nextauth_users",
      accounts: "nextauth_accounts",
      sessions: "nextauth_sessions",
      verificationTokens: "nextauth_verificationTokens",
    },
    users: `SELECT ${id} AS "id", "name", "email", "emailVerified", "image" FROM ${s}."nextauth_users" ORDER BY ${id}`,
    accounts: `SELECT a.${id} AS "id", COALESCE(a."user", l."user") AS "userId", a."type", a."provider", a."providerAccountId",
      ${accountTokenColumns("a")}
      FROM ${s}."nextauth_accounts" a LEFT JOIN ${s}."nextauth_users_accounts" l ON l."account" = a.${id} ORDER BY a.${id}`,
    sessions: `SELECT x.${id} AS "id", COALESCE(x."user", l."user") AS "userId", x."sessionToken", x."expires"
      FROM ${s}."nextauth_sessions" x LEFT JOIN ${s}."nextauth_users_sessions" l ON l."session" = x.${id} ORDER BY x.${id}`,
    pendingSignInLinks: `SELECT count(*) AS "count" FROM ${s}."nextauth_verificationTokens" WHERE "expires" > now()`,
  };
}

function explainMissingSource(error: unknown, schema: string, table: string, tables: AuthjsTables): unknown {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  if (code !== "42P01" && code !== "3F000" && code !== "42703") return error;
  return new HostedDbError(
    "InvalidOptions",
    `The Auth.js table ${schema}.${table} (tables: "${tables}") is missing or has other columns than the adapter's schema: ${(error as Error).message}`,
    { cause: error },
  );
}

async function openSourcePool(url: string): Promise<PgPoolLike> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new HostedDbError("InvalidOptions", "The Auth.js database must be given as a postgres:// or postgresql:// URL (or a pg pool).");
  }
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  return pool;
}
