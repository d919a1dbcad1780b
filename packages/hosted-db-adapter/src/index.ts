/**
 * `@authlib/hosted-db-adapter`: the hosted database (Postgres) for authlib. `HostedDbClient` connects
 * to PostgreSQL through `pg`, or runs an embedded PGlite database; `HostedDbAdapter` is the authlib
 * adapter over it; `hostedDbRateLimitStore` keeps rate-limit counters in it, shared by every instance;
 * `hostedDbSessionStore` keeps the records of signed-in sessions (session control) for JWT sessions;
 * `client.migrate()` / `npx authlib db migrate` create the tables (`npx authlib db status` shows where a
 * branch stands, `npx authlib db prune` / `pruneExpiredRows` delete expired rows).
 *
 * @example
 * ```ts
 * import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
 *
 * const client = new HostedDbClient(); // AUTHLIB_DATABASE_URL, else ./.authlib-db
 * await client.migrate();
 * export const adapter = HostedDbAdapter(client);
 * ```
 *
 * @module @authlib/hosted-db-adapter
 */
export { HostedDbAdapter } from "./adapter.js";
export { AUDIT_EVENTS_TABLE, type HostedDbAuditQuery, type HostedDbAuditStore, hostedDbAuditStore } from "./audit-store.js";
export {
  type BaseClientOptions,
  DEFAULT_BRANCH,
  DEFAULT_DATA_DIR,
  HostedDbClient,
  type HostedDbConfig,
  type HostedDbScope,
} from "./client.js";
export type { HostedDbQueryEvent, Queryable, QueryResult } from "./drivers/queryable.js";
export type { DriverResult, PGliteLike, PGliteTransactionLike, PgPoolClientLike, PgPoolLike } from "./drivers/shapes.js";
export { HostedDbError, type HostedDbErrorCode } from "./errors.js";
export {
  type AuthjsImportResult,
  type AuthjsTables,
  type ImportCount,
  type ImportFromAuthjsOptions,
  importFromAuthjs,
} from "./import-authjs.js";
export { type AppliedMigration, type HostedDbMigrationStatus, migrationStatus } from "./migration-status.js";
export { type HostedDbMigration, type HostedDbMigrationResult, migrations, runMigrations } from "./migrations.js";
export { type HostedDbPruneOptions, type HostedDbPruneResult, OAUTH_TOKEN_RETENTION, pruneExpiredRows } from "./prune.js";
export {
  type HostedDbRateLimitStore,
  type HostedDbRateLimitStoreOptions,
  hostedDbRateLimitStore,
  RATE_LIMIT_TABLE,
} from "./rate-limit-store.js";
export type {
  AuthlibAccountRecord,
  AuthlibAuthenticatorRecord,
  AuthlibDomainRecord,
  AuthlibInvitationRecord,
  AuthlibMemberRecord,
  AuthlibOrganizationRecord,
  AuthlibSessionRecord,
  AuthlibUserRecord,
  AuthlibUsersAccountRecord,
  AuthlibUsersSessionRecord,
  AuthlibVerificationTokenRecord,
  DatabaseSchema,
  HostedDbCreateInput,
  HostedDbFields,
  HostedDbFilter,
  HostedDbJson,
  HostedDbLink,
  HostedDbRecord,
  HostedDbRecordMeta,
  HostedDbTableName,
} from "./schema.js";
export { hostedDbSessionStore, SESSION_RECORDS_TABLE } from "./session-store.js";
export { HostedDbTable, type HostedDbTables } from "./tables.js";
