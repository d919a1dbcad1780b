/**
 * `importFromAuthjs`: copies the users, accounts, sessions and authenticators an Auth.js adapter stored
 * (`@auth/pg-adapter`'s tables, or `@auth/xata-adapter`'s `nextauth_*` tables on a Postgres-enabled Xata
 * branch) into the authlib tables of a branch, in one transaction, so that an Auth.js app moves to
 * authlib without signing anyone out.
 *
 * Ids are kept (as text): an Auth.js JWT's `sub` and every account and session keep pointing at the same
 * user. What was imported is recorded per source row in `authlib_authjs_imports`, so running the import
 * again copies only rows Auth.js created since, and never brings back a session, account or user that
 * was ended or deleted in authlib after it had been imported.
 *
 * Verification tokens are not copied: Auth.js stores `sha256(token + secret)`, authlib an HMAC, so a
 * pending Auth.js sign-in link could never be redeemed; they are counted (`pendingSignInLinks`).
 *
 * @module import-authjs
 */
import type { HostedDbClient, HostedDbScope } from "./client.js";
import type { PgPoolClientLike, PgPoolLike } from "./drivers/shapes.js";
import { HostedDbError } from "./errors.js";
import { quoteIdentifier } from "./sql.js";

/** Which Auth.js adapter wrote the tables. */
export type AuthjsTables = "pg-adapter" | "xata";

/** Options of {@link importFromAuthjs}. */
export interface ImportFromAuthjsOptions {
  /** The database holding the Auth.js tables: a `postgres://` URL or a `pg` pool. */
  from: string | PgPoolLike;
  /** The Postgres schema of the Auth.js tables. Default `public`. */
  schema?: string;
  /** Which adapter's tables: `pg-adapter` (`users`, `accounts`, …) or `xata` (`nextauth_*`). */
  tables: AuthjsTables;
  /**
   * Mark imported addresses without `emailVerified` as verified now. Auth.js stored OAuth profiles'
   * addresses without checking them; authlib treats such an address as unproven (an email link for it
   * then goes to a new user, see SECURITY.md "Identity"). Set this only when every provider the Auth.js
   * app used verified addresses. Default false.
   */
  trustEmails?: boolean;
}

/** How many rows of one kind the source had, and how many this run copied. */
export interface ImportCount {
  /** Rows read from the Auth.js tables (expired sessions excluded). */
  read: number;
  /** Rows copied by this run (0 for rows imported by an earlier run). */
  imported: number;
}

/** What {@link importFromAuthjs} did. */
export interface AuthjsImportResult {
  users: ImportCount;
  accounts: ImportCount;
  sessions: ImportCount;
  authenticators: ImportCount;
  /** Unexpired Auth.js verification tokens, not copied (their hash differs from authlib's). */
  pendingSignInLinks: number;
}

interface UserRow {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: Date | null;
  image: string | null;
}

interface AccountRow {
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

interface SessionRow {
  id: string;
  userId: string;
  sessionToken: string;
  expires: Date;
}

interface AuthenticatorRow {
  id: string;
  userId: string;
  providerAccountId: string;
  credentialPublicKey: string;
  counter: string;
  credentialDeviceType: string;
  credentialBackedUp: boolean;
  transports: string | null;
}

interface SourceRows {
  users: UserRow[];
  accounts: AccountRow[];
  sessions: SessionRow[];
  authenticators: AuthenticatorRow[];
  pendingSignInLinks: number;
}

/** The ledger of imported source rows, created in the branch by the first import. */
const LEDGER = "authlib_authjs_imports";

/**
 * Copies an Auth.js adapter's data into the authlib tables of `client`'s branch (run `client.migrate()`
 * first), in one transaction: all or nothing. Idempotent: a second run copies only what Auth.js added
 * since. Throws `HostedDbError("InvalidOptions")` when the source tables are missing, and
 * `HostedDbError("ImportConflict")` (nothing written) when authlib already holds a different user with an
 * imported address, or an imported provider account under another user.
 */
export async function importFromAuthjs(client: HostedDbClient, options: ImportFromAuthjsOptions): Promise<AuthjsImportResult> {
  const source = await readSource(options);
  const now = new Date();
  const live = { ...source, sessions: source.sessions.filter((s) => s.expires > now) };
  return client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`authlib-import-authjs:${client.branch}`]);
    const ledger = `${quoteIdentifier(client.branch)}.${quoteIdentifier(LEDGER)}`;
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${ledger} (
        "kind" text NOT NULL,
        "source_id" text NOT NULL,
        "imported_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("kind", "source_id"))`,
    );
    const fresh = async <R extends { id: string }>(kind: string, rows: R[]): Promise<R[]> => {
      if (rows.length === 0) return rows;
      const { rows: done } = await tx.query<{ source_id: string }>(
        `SELECT "source_id" FROM ${ledger} WHERE "kind" = $1 AND "source_id" = ANY($2::text[])`,
        [kind, rows.map((r) => r.id)],
      );
      const seen = new Set(done.map((d) => d.source_id));
      return rows.filter((r) => !seen.has(r.id));
    };
    const record = (kind: string, ids: string[]) =>
      tx.query(`INSERT INTO ${ledger} ("kind", "source_id") SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [kind, ids]);

    const users = await fresh("user", live.users);
    await insertUsers(tx, users, options.trustEmails === true, now);
    await record(
      "user",
      users.map((u) => u.id),
    );
    const accounts = await fresh("account", live.accounts);
    await insertAccounts(tx, accounts);
    await record(
      "account",
      accounts.map((a) => a.id),
    );
    const sessions = await fresh("session", live.sessions);
    await insertSessions(tx, sessions);
    await record(
      "session",
      sessions.map((s) => s.id),
    );
    const authenticators = await fresh("authenticator", live.authenticators);
    await insertAuthenticators(tx, authenticators);
    await record(
      "authenticator",
      authenticators.map((a) => a.id),
    );
    return {
      users: { read: live.users.length, imported: users.length },
      accounts: { read: live.accounts.length, imported: accounts.length },
      sessions: { read: live.sessions.length, imported: sessions.length },
      authenticators: { read: live.authenticators.length, imported: authenticators.length },
      pendingSignInLinks: live.pendingSignInLinks,
    };
  });
}

async function insertUsers(tx: HostedDbScope, rows: UserRow[], trustEmails: boolean, now: Date): Promise<void> {
  if (rows.length === 0) return;
  const t = tx.db.authlib_users;
  const verified = (u: UserRow) => u.emailVerified ?? (trustEmails && u.email !== null ? now : null);
  await tx.query(
    `INSERT INTO ${t.sqlName} ("id", ${t.column("email")}, ${t.column("emailVerified")}, ${t.column("name")}, ${t.column("image")})
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`,
    [rows.map((u) => u.id), rows.map((u) => u.email), rows.map(verified), rows.map((u) => u.name), rows.map((u) => u.image)],
  );
  const { rows: found } = await tx.query<{ id: string; email: string | null }>(
    `SELECT "id", ${t.column("email")} AS "email" FROM ${t.sqlName} WHERE "id" = ANY($1::text[])`,
    [rows.map((u) => u.id)],
  );
  const byId = new Map(found.map((f) => [f.id, f.email]));
  const clashes = rows.filter((u) => !byId.has(u.id) || byId.get(u.id) !== u.email);
  if (clashes.length > 0) {
    throw new HostedDbError(
      "ImportConflict",
      `${clashes.length} Auth.js user(s) (ids ${listIds(clashes)}) clash with users authlib already has (same address under another id, or the id taken by another address). Import before switching sign-ins to authlib, into a branch that holds no other users.`,
    );
  }
}

async function insertAccounts(tx: HostedDbScope, rows: AccountRow[]): Promise<void> {
  if (rows.length === 0) return;
  const t = tx.db.authlib_accounts;
  const columns = [
    "user",
    "type",
    "provider",
    "providerAccountId",
    "access_token",
    "expires_at",
    "id_token",
    "refresh_token",
    "scope",
  ] as const;
  await tx.query(
    `INSERT INTO ${t.sqlName} ("id", ${columns.map((c) => t.column(c)).join(", ")}, ${t.column("session_state")}, ${t.column("token_type")})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[],
       $9::text[], $10::text[], $11::text[], $12::text[]) ON CONFLICT DO NOTHING`,
    [
      rows.map((a) => a.id),
      rows.map((a) => a.userId),
      rows.map((a) => a.type),
      rows.map((a) => a.provider),
      rows.map((a) => a.providerAccountId),
      rows.map((a) => a.access_token),
      rows.map((a) => a.expires_at),
      rows.map((a) => a.id_token),
      rows.map((a) => a.refresh_token),
      rows.map((a) => a.scope),
      rows.map((a) => a.session_state),
      rows.map((a) => a.token_type?.toLowerCase() ?? null),
    ],
  );
  const clashes = await missingUnder(tx, t.sqlName, t.column("user"), rows);
  if (clashes.length > 0) {
    throw new HostedDbError(
      "ImportConflict",
      `${clashes.length} Auth.js account(s) (ids ${listIds(clashes)}) are already linked in authlib to another user, or their id is taken.`,
    );
  }
  const link = tx.db.authlib_users_accounts;
  await tx.query(
    `INSERT INTO ${link.sqlName} (${link.column("user")}, ${link.column("account")})
     SELECT ${t.column("user")}, "id" FROM ${t.sqlName} WHERE "id" = ANY($1::text[]) ON CONFLICT DO NOTHING`,
    [rows.map((a) => a.id)],
  );
}

async function insertSessions(tx: HostedDbScope, rows: SessionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const t = tx.db.authlib_sessions;
  await tx.query(
    `INSERT INTO ${t.sqlName} ("id", ${t.column("user")}, ${t.column("sessionToken")}, ${t.column("expires")})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) ON CONFLICT DO NOTHING`,
    [rows.map((s) => s.id), rows.map((s) => s.userId), rows.map((s) => s.sessionToken), rows.map((s) => s.expires)],
  );
  const clashes = await missingUnder(tx, t.sqlName, t.column("user"), rows);
  if (clashes.length > 0) {
    throw new HostedDbError(
      "ImportConflict",
      `${clashes.length} Auth.js session(s) (ids ${listIds(clashes)}) clash with authlib sessions.`,
    );
  }
  const link = tx.db.authlib_users_sessions;
  await tx.query(
    `INSERT INTO ${link.sqlName} (${link.column("user")}, ${link.column("session")})
     SELECT ${t.column("user")}, "id" FROM ${t.sqlName} WHERE "id" = ANY($1::text[]) ON CONFLICT DO NOTHING`,
    [rows.map((s) => s.id)],
  );
}

async function insertAuthenticators(tx: HostedDbScope, rows: AuthenticatorRow[]): Promise<void> {
  if (rows.length === 0) return;
  const t = tx.db.authlib_authenticators;
  const fields = ["credentialID", "user", "providerAccountId", "credentialPublicKey", "counter", "credentialDeviceType"] as const;
  await tx.query(
    `INSERT INTO ${t.sqlName} (${fields.map((f) => t.column(f)).join(", ")}, ${t.column("credentialBackedUp")}, ${t.column("transports")})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::boolean[], $8::text[])
     ON CONFLICT DO NOTHING`,
    [
      rows.map((a) => a.id),
      rows.map((a) => a.userId),
      rows.map((a) => a.providerAccountId),
      rows.map((a) => a.credentialPublicKey),
      rows.map((a) => a.counter),
      rows.map((a) => a.credentialDeviceType),
      rows.map((a) => a.credentialBackedUp),
      rows.map((a) => a.transports),
    ],
  );
  const { rows: found } = await tx.query<{ id: string; user_id: string }>(
    `SELECT ${t.column("credentialID")} AS "id", ${t.column("user")} AS "user_id" FROM ${t.sqlName} WHERE ${t.column("credentialID")} = ANY($1::text[])`,
    [rows.map((a) => a.id)],
  );
  const clashes = mismatched(rows, found);
  if (clashes.length > 0) {
    throw new HostedDbError(
      "ImportConflict",
      `${clashes.length} Auth.js authenticator(s) are already registered in authlib to another user.`,
    );
  }
}

/** Source rows that, after the insert, are not in `table` under the same id and user. */
async function missingUnder<R extends { id: string; userId: string }>(tx: HostedDbScope, table: string, userColumn: string, rows: R[]) {
  const { rows: found } = await tx.query<{ id: string; user_id: string }>(
    `SELECT "id", ${userColumn} AS "user_id" FROM ${table} WHERE "id" = ANY($1::text[])`,
    [rows.map((r) => r.id)],
  );
  return mismatched(rows, found);
}

function mismatched<R extends { id: string; userId: string }>(rows: R[], found: Array<{ id: string; user_id: string }>): R[] {
  const owner = new Map(found.map((f) => [f.id, f.user_id]));
  return rows.filter((r) => owner.get(r.id) !== r.userId);
}

function listIds(rows: Array<{ id: string }>): string {
  const shown = rows.slice(0, 5).map((r) => r.id);
  return rows.length > shown.length ? `${shown.join(", ")}, …` : shown.join(", ");
}

/** Reads every source table in one read-only, repeatable-read transaction: one consistent snapshot. */
async function readSource(options: ImportFromAuthjsOptions): Promise<SourceRows> {
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
