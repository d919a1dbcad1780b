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
import { HostedDbError } from "./errors.js";
import {
  type AccountRow,
  type AuthenticatorRow,
  type AuthjsSource,
  type AuthjsTables,
  readSource,
  type SessionRow,
  type UserRow,
} from "./import-authjs-source.js";
import { quoteIdentifier } from "./sql.js";

export type { AuthjsTables };

/** Options of {@link importFromAuthjs}: where the Auth.js tables are, and how to treat their addresses. */
export interface ImportFromAuthjsOptions extends AuthjsSource {
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
    const ledger = new ImportLedger(tx, client.branch);
    await ledger.create();
    const step = async <R extends { id: string; userId?: string }>(kind: string, rows: R[], insert: (rows: R[]) => Promise<void>) => {
      const fresh = await ledger.notYetImported(kind, rows);
      // A row of a user deleted in authlib since the last run stays out (recorded, so it never returns).
      const kept = await withExistingUser(tx, fresh);
      await insert(kept);
      await ledger.record(
        kind,
        fresh.map((row) => row.id),
      );
      return { read: rows.length, imported: kept.length };
    };
    return {
      users: await step("user", live.users, (rows) => insertUsers(tx, rows, options.trustEmails === true, now)),
      accounts: await step("account", live.accounts, (rows) => insertAccounts(tx, rows)),
      sessions: await step("session", live.sessions, (rows) => insertSessions(tx, rows)),
      authenticators: await step("authenticator", live.authenticators, (rows) => insertAuthenticators(tx, rows)),
      pendingSignInLinks: live.pendingSignInLinks,
    };
  });
}

/**
 * `authlib_authjs_imports` in the branch: which source rows (by kind and Auth.js id) were imported.
 * Created by the first import; not part of the migrations, since only an import ever reads it.
 */
class ImportLedger {
  readonly #tx: HostedDbScope;
  readonly #table: string;

  constructor(tx: HostedDbScope, branch: string) {
    this.#tx = tx;
    this.#table = `${quoteIdentifier(branch)}.${quoteIdentifier(LEDGER)}`;
  }

  async create(): Promise<void> {
    await this.#tx.query(
      `CREATE TABLE IF NOT EXISTS ${this.#table} (
        "kind" text NOT NULL,
        "source_id" text NOT NULL,
        "imported_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("kind", "source_id"))`,
    );
  }

  /** The rows no earlier run imported. */
  async notYetImported<R extends { id: string }>(kind: string, rows: R[]): Promise<R[]> {
    if (rows.length === 0) return rows;
    const { rows: done } = await this.#tx.query<{ source_id: string }>(
      `SELECT "source_id" FROM ${this.#table} WHERE "kind" = $1 AND "source_id" = ANY($2::text[])`,
      [kind, rows.map((row) => row.id)],
    );
    const seen = new Set(done.map((d) => d.source_id));
    return rows.filter((row) => !seen.has(row.id));
  }

  async record(kind: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#tx.query(`INSERT INTO ${this.#table} ("kind", "source_id") SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [
      kind,
      ids,
    ]);
  }
}

/** The rows whose `userId` is a user authlib has (rows without `userId`, i.e. users, all). */
async function withExistingUser<R extends { userId?: string }>(tx: HostedDbScope, rows: R[]): Promise<R[]> {
  const userIds = [...new Set(rows.flatMap((row) => (row.userId === undefined ? [] : [row.userId])))];
  if (userIds.length === 0) return rows;
  const t = tx.db.authlib_users;
  const { rows: found } = await tx.query<{ id: string }>(`SELECT "id" FROM ${t.sqlName} WHERE "id" = ANY($1::text[])`, [userIds]);
  const present = new Set(found.map((f) => f.id));
  return rows.filter((row) => row.userId === undefined || present.has(row.userId));
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
