/**
 * Where a branch stands: which migrations are applied, which are pending, which tables exist. Read from
 * the catalog and the history table only, so it works on a branch that was never migrated.
 *
 * @module migration-status
 */
import type { HostedDbScope } from "./client.js";
import { migrations } from "./migrations.js";
import { quoteIdentifier } from "./sql.js";

/** One applied migration, from `<branch>.authlib_migrations`. */
export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: Date;
}

/** What `migrationStatus` found. */
export interface HostedDbMigrationStatus {
  /** The branch (Postgres schema) looked at. */
  branch: string;
  /** Applied migrations, oldest first; `[]` for a branch that was never migrated. */
  applied: AppliedMigration[];
  /** Versions this package has that the branch lacks, in order. */
  pending: number[];
  /** Tables of the branch (history table included), by name. */
  tables: string[];
}

/**
 * The migration status of `branch`, through `scope` (a `HostedDbClient`). Runs three catalog reads; the
 * first one is also the cheapest proof that the database answers.
 */
export async function migrationStatus(scope: HostedDbScope, branch: string): Promise<HostedDbMigrationStatus> {
  const { rows: tableRows } = await scope.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
    [branch],
  );
  const tables = tableRows.map((row) => row.table_name);
  let applied: AppliedMigration[] = [];
  if (tables.includes("authlib_migrations")) {
    const { rows } = await scope.query<{ version: number; name: string; applied_at: Date | string }>(
      `SELECT "version", "name", "applied_at" FROM ${quoteIdentifier(branch)}."authlib_migrations" ORDER BY "version"`,
    );
    applied = rows.map((row) => ({ version: Number(row.version), name: row.name, appliedAt: new Date(row.applied_at) }));
  }
  const done = new Set(applied.map((migration) => migration.version));
  const pending = migrations.filter((migration) => !done.has(migration.version)).map((migration) => migration.version);
  return { branch, applied, pending, tables };
}
