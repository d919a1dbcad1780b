/**
 * The schema of a branch, as an ordered list of migrations, and the runner that applies the missing ones.
 *
 * A migration, once released, never changes: a schema change is a new migration with the next version.
 *
 * @module migrations
 */
import type { Queryable } from "./drivers/queryable.js";
import { authorizationServerTables } from "./oauth-schema.js";
import { quoteIdentifier } from "./sql.js";

/** One step of the schema. `statements` gets the quoted schema name and returns single SQL statements. */
export interface HostedDbMigration {
  version: number;
  name: string;
  /** The migration's SQL statements for the quoted schema (branch) name, one statement each. */
  statements(schema: string): string[];
}

/** What `migrate()` did. */
export interface HostedDbMigrationResult {
  /** The branch (Postgres schema) that was migrated. */
  branch: string;
  /** Versions applied by this call, in order; `[]` when the branch was up to date. */
  applied: number[];
  /** The highest version now applied. */
  version: number;
}

/** Columns every table has besides its fields (see `HostedDbRecord`). */
const RECORD_COLUMNS = `
  "id" text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "version" integer NOT NULL DEFAULT 0`;

/** Every migration, oldest first. */
export const migrations: readonly HostedDbMigration[] = [
  {
    version: 1,
    name: "authlib tables",
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_users" (${RECORD_COLUMNS},
        "email" text,
        "emailVerified" timestamptz,
        "image" text,
        "name" text,
        CONSTRAINT "authlib_users_email_key" UNIQUE ("email"))`,
      `CREATE TABLE ${s}."authlib_accounts" (${RECORD_COLUMNS},
        "user_id" text REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "type" text,
        "provider" text,
        "providerAccountId" text,
        "access_token" text,
        "expires_at" bigint,
        "id_token" text,
        "refresh_token" text,
        "scope" text,
        "session_state" text,
        "token_type" text,
        CONSTRAINT "authlib_accounts_provider_key" UNIQUE ("provider", "providerAccountId"))`,
      `CREATE INDEX "authlib_accounts_user_id_idx" ON ${s}."authlib_accounts" ("user_id")`,
      `CREATE TABLE ${s}."authlib_sessions" (${RECORD_COLUMNS},
        "user_id" text REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "sessionToken" text,
        "expires" timestamptz,
        CONSTRAINT "authlib_sessions_sessionToken_key" UNIQUE ("sessionToken"))`,
      `CREATE INDEX "authlib_sessions_user_id_idx" ON ${s}."authlib_sessions" ("user_id")`,
      `CREATE TABLE ${s}."authlib_users_accounts" (${RECORD_COLUMNS},
        "user_id" text REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "account_id" text REFERENCES ${s}."authlib_accounts" ("id") ON DELETE CASCADE,
        CONSTRAINT "authlib_users_accounts_account_id_key" UNIQUE ("account_id"))`,
      `CREATE INDEX "authlib_users_accounts_user_id_idx" ON ${s}."authlib_users_accounts" ("user_id")`,
      `CREATE TABLE ${s}."authlib_users_sessions" (${RECORD_COLUMNS},
        "user_id" text REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "session_id" text REFERENCES ${s}."authlib_sessions" ("id") ON DELETE CASCADE,
        CONSTRAINT "authlib_users_sessions_session_id_key" UNIQUE ("session_id"))`,
      `CREATE INDEX "authlib_users_sessions_user_id_idx" ON ${s}."authlib_users_sessions" ("user_id")`,
      `CREATE TABLE ${s}."authlib_verificationTokens" (${RECORD_COLUMNS},
        "identifier" text,
        "token" text,
        "expires" timestamptz,
        CONSTRAINT "authlib_verificationTokens_identifier_token_key" UNIQUE ("identifier", "token"))`,
      `CREATE TABLE ${s}."authlib_authenticators" (${RECORD_COLUMNS},
        "user_id" text REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "credentialID" text,
        "providerAccountId" text,
        "counter" bigint,
        "credentialBackedUp" boolean,
        "credentialPublicKey" text,
        "credentialDeviceType" text,
        "transports" text,
        CONSTRAINT "authlib_authenticators_credentialID_key" UNIQUE ("credentialID"))`,
      `CREATE INDEX "authlib_authenticators_user_id_idx" ON ${s}."authlib_authenticators" ("user_id")`,
    ],
  },
  {
    version: 2,
    name: "rate-limit windows",
    // Not a record table (no id, no bookkeeping): one fixed window per key, written only by
    // `hostedDbRateLimitStore`. The reset_at index serves the sweep of ended windows.
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_rate_limits" (
        "key" text PRIMARY KEY,
        "count" bigint NOT NULL,
        "reset_at" timestamptz NOT NULL)`,
      `CREATE INDEX "authlib_rate_limits_reset_at_idx" ON ${s}."authlib_rate_limits" ("reset_at")`,
    ],
  },
  {
    version: 3,
    name: "verification-token expiry index",
    // Every token write sweeps a few expired tokens, oldest expiry first (verification-tokens.ts), and
    // `authlib db prune` deletes them all: both find them through this index, not a scan of live tokens.
    statements: (s) => [`CREATE INDEX "authlib_verificationTokens_expires_idx" ON ${s}."authlib_verificationTokens" ("expires")`],
  },
  {
    version: 4,
    name: "session records",
    // Session control (session-store.ts). A database session's row is its record, so it gains the
    // metadata as nullable columns: adding them rewrites no row, and rows from before read `last_seen_at`
    // as their `created_at`. JWT sessions' records get a table of their own, without a foreign key to
    // authlib_users: a JWT session's user (a credentials user, say) need not be stored there.
    statements: (s) => [
      `ALTER TABLE ${s}."authlib_sessions"
        ADD COLUMN "last_seen_at" timestamptz,
        ADD COLUMN "user_agent" text,
        ADD COLUMN "client_address" text,
        ADD COLUMN "provider" text`,
      `CREATE TABLE ${s}."authlib_session_records" (
        "id" text PRIMARY KEY,
        "user_id" text NOT NULL,
        "created_at" timestamptz NOT NULL,
        "last_seen_at" timestamptz NOT NULL,
        "expires" timestamptz NOT NULL,
        "user_agent" text,
        "client_address" text,
        "provider" text)`,
      `CREATE INDEX "authlib_session_records_user_id_idx" ON ${s}."authlib_session_records" ("user_id")`,
      `CREATE INDEX "authlib_session_records_expires_idx" ON ${s}."authlib_session_records" ("expires")`,
    ],
  },
  {
    version: 5,
    name: "audit events",
    // The audit trail (audit-store.ts): append-only, read newest first. No foreign key to authlib_users:
    // a row outlives its user (deleting an account keeps the evidence of its sign-ins), and JWT users
    // need not be stored there. No column can hold an email, a token or a full address.
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_audit_events" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "time" timestamptz NOT NULL,
        "type" text NOT NULL,
        "outcome" text NOT NULL,
        "user_id" text,
        "provider" text,
        "client_address_prefix" text,
        "user_agent_label" text,
        "detail" text)`,
      `CREATE INDEX "authlib_audit_events_time_idx" ON ${s}."authlib_audit_events" ("time")`,
      `CREATE INDEX "authlib_audit_events_user_id_idx" ON ${s}."authlib_audit_events" ("user_id", "time")`,
    ],
  },
  {
    version: 6,
    name: "passkey names",
    // Passkeys managed like any factor (listed, renamed, removed): a name the user sees and the time of
    // the last sign-in. Nullable columns: adding them rewrites no row, and a passkey from before lists
    // with a default name and "never used" until it signs in. Its registration time is `created_at`.
    statements: (s) => [
      `ALTER TABLE ${s}."authlib_authenticators"
        ADD COLUMN "name" text,
        ADD COLUMN "last_used_at" timestamptz`,
    ],
  },
  {
    version: 7,
    name: "organizations",
    // Organizations (core's `organizations: {}`), held together by the database: a unique slug, one
    // membership per (organization, user), and foreign keys that delete an organization's members,
    // invitations and domains with it, and a user's memberships with the user. `created_at` is the time
    // core gives (the record's creation), `policy` the sign-in policy as JSON. An invitation keeps only its
    // token's hash, and `invited_by` has no foreign key: an invitation outlives the member who sent it.
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_organizations" (${RECORD_COLUMNS},
        "name" text NOT NULL,
        "slug" text NOT NULL,
        "policy" jsonb NOT NULL DEFAULT '{}',
        "domain_join" text NOT NULL DEFAULT 'off' CHECK ("domain_join" IN ('auto', 'suggest', 'off')),
        CONSTRAINT "authlib_organizations_slug_key" UNIQUE ("slug"))`,
      `CREATE TABLE ${s}."authlib_members" (${RECORD_COLUMNS},
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "role" text NOT NULL,
        CONSTRAINT "authlib_members_organization_id_user_id_key" UNIQUE ("organization_id", "user_id"))`,
      `CREATE INDEX "authlib_members_user_id_idx" ON ${s}."authlib_members" ("user_id")`,
      `CREATE TABLE ${s}."authlib_invitations" (${RECORD_COLUMNS},
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "email" text NOT NULL,
        "role" text NOT NULL,
        "invited_by" text NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('pending', 'accepted', 'revoked')),
        "token_hash" text NOT NULL,
        "expires" timestamptz NOT NULL)`,
      `CREATE INDEX "authlib_invitations_organization_id_idx" ON ${s}."authlib_invitations" ("organization_id")`,
      `CREATE TABLE ${s}."authlib_domains" (${RECORD_COLUMNS},
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "name" text NOT NULL,
        "token" text NOT NULL,
        "verified_at" timestamptz)`,
      `CREATE INDEX "authlib_domains_name_idx" ON ${s}."authlib_domains" ("name")`,
      `CREATE INDEX "authlib_domains_organization_id_idx" ON ${s}."authlib_domains" ("organization_id")`,
    ],
  },
  {
    version: 8,
    name: "authorization server",
    // The authorization server (core's `authorizationServer`, authorization-server.ts). Not record tables:
    // each is keyed by what core looks it up by (a client id, a code's or device code's hash, a key id), and
    // lists are text[] (`null` apart from `[]` where the contract says so). A row a user owns (a consent, a
    // code, a grant, a device code they answered) goes with the user (foreign key); a client does not: it is
    // the app's, and `client_id` has no foreign key since a client declared in the configuration is not
    // stored. A code's `grant_id` has none either: the grant is written after the code is marked used. The
    // three compare-and-set methods are single conditional UPDATEs. The `expires_at` indexes serve
    // `authlib db prune`.
    statements: (s) => authorizationServerTables(s),
  },
  {
    version: 9,
    name: "api keys",
    // API keys (core's `apiKeys`, api-keys.ts): keyed by the key's public id; `hash` is the keyed HMAC of
    // the key, never the key. A key goes with the user who made it (foreign key); `organization_id` has
    // none, so the table stands without migration 7's tables being used (and an organization's deletion
    // leaves keys whose creator is no member: verification refuses them). The indexes serve the lists and
    // `authlib db prune` (`expires_at`, `revoked_at`).
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_api_keys" (
        "id" text PRIMARY KEY,
        "hash" text NOT NULL,
        "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "organization_id" text,
        "name" text NOT NULL,
        "start" text NOT NULL,
        "scopes" text[] NOT NULL,
        "created_at" timestamptz NOT NULL,
        "expires_at" timestamptz,
        "last_used_at" timestamptz,
        "revoked_at" timestamptz)`,
      `CREATE INDEX "authlib_api_keys_user_id_idx" ON ${s}."authlib_api_keys" ("user_id")`,
      `CREATE INDEX "authlib_api_keys_organization_id_idx" ON ${s}."authlib_api_keys" ("organization_id") WHERE "organization_id" IS NOT NULL`,
      `CREATE INDEX "authlib_api_keys_expires_at_idx" ON ${s}."authlib_api_keys" ("expires_at") WHERE "expires_at" IS NOT NULL`,
    ],
  },
  {
    version: 10,
    name: "admin: bans and roles",
    // The admin feature (core's `admin: {…}`, admin.ts): one ban per user, which goes with the user
    // (foreign key); `expires_at` NULL lasts until lifted, and its index serves `authlib db prune`. A user's
    // `role` is the app's (core's `admin.roles` reads it): nullable, so adding it rewrites no row. Users are
    // listed by id in byte order ("C" collation), so a cursor stays stable whatever the database's locale.
    statements: (s) => [
      `ALTER TABLE ${s}."authlib_users" ADD COLUMN "role" text`,
      `CREATE TABLE ${s}."authlib_user_bans" (
        "user_id" text PRIMARY KEY REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "reason" text,
        "banned_by" text,
        "created_at" timestamptz NOT NULL,
        "expires_at" timestamptz)`,
      `CREATE INDEX "authlib_user_bans_expires_at_idx" ON ${s}."authlib_user_bans" ("expires_at")`,
      `CREATE INDEX "authlib_users_id_c_idx" ON ${s}."authlib_users" ("id" COLLATE "C")`,
    ],
  },
  {
    version: 11,
    name: "audit impersonator",
    // Impersonation (core's `impersonateUser`): a row of an admin's action as a user names the admin beside
    // the user. Nullable: adding it rewrites no row, and every row from before acted as its own user.
    statements: (s) => [`ALTER TABLE ${s}."authlib_audit_events" ADD COLUMN "impersonator_id" text`],
  },
  {
    version: 12,
    name: "sso connections and identities",
    // Enterprise SSO (core's `sso`, sso.ts): a connection goes with its organization, an identity with its
    // connection and with its user (foreign keys). The protocol's settings are jsonb as core hands them over;
    // their secrets (the OIDC client secret, the SAML key) are already encrypted by core (JWE, a key derived
    // from the instance's secret): this table never holds one in clear. One identity per connection and
    // subject (the primary key): the same subject at another connection is another identity.
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_sso_connections" (
        "id" text PRIMARY KEY,
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "protocol" text NOT NULL CHECK ("protocol" IN ('saml', 'oidc')),
        "name" text NOT NULL,
        "default_role" text NOT NULL,
        "attribute_mapping" jsonb NOT NULL,
        "group_roles" jsonb,
        "sso_required" boolean NOT NULL,
        "saml" jsonb,
        "oidc" jsonb,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL)`,
      `CREATE INDEX "authlib_sso_connections_organization_id_idx" ON ${s}."authlib_sso_connections" ("organization_id")`,
      `CREATE TABLE ${s}."authlib_sso_identities" (
        "connection_id" text NOT NULL REFERENCES ${s}."authlib_sso_connections" ("id") ON DELETE CASCADE,
        "subject" text NOT NULL,
        "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "created_at" timestamptz NOT NULL,
        PRIMARY KEY ("connection_id", "subject"))`,
      `CREATE INDEX "authlib_sso_identities_user_id_idx" ON ${s}."authlib_sso_identities" ("user_id")`,
    ],
  },
  {
    version: 13,
    name: "scim directory",
    // SCIM provisioning (core's `sso.scim`, scim.ts): an organization's tokens (`hash` is the keyed HMAC of
    // the token, never the token), its directory's users (each a core user: foreign key, so the entry goes
    // with the user) and groups, and who is in which group. Every row names its organization and goes with
    // it. A live user's `userName` and a group's `displayName` are unique per organization without case
    // (RFC 7643 §4); a deleted user's entry stays (`deleted_at`) to say they were deprovisioned. Migration 12
    // is the SSO connections'.
    statements: (s) => [
      `CREATE TABLE ${s}."authlib_scim_tokens" (
        "id" text PRIMARY KEY,
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "hash" text NOT NULL,
        "start" text NOT NULL,
        "created_by" text NOT NULL,
        "created_at" timestamptz NOT NULL,
        "last_used_at" timestamptz,
        "revoked_at" timestamptz)`,
      `CREATE INDEX "authlib_scim_tokens_organization_id_idx" ON ${s}."authlib_scim_tokens" ("organization_id")`,
      `CREATE TABLE ${s}."authlib_scim_users" (
        "id" text PRIMARY KEY,
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "user_id" text NOT NULL REFERENCES ${s}."authlib_users" ("id") ON DELETE CASCADE,
        "external_id" text,
        "user_name" text NOT NULL,
        "active" boolean NOT NULL,
        "resource" jsonb NOT NULL,
        "version" integer NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        "deleted_at" timestamptz)`,
      `CREATE UNIQUE INDEX "authlib_scim_users_user_name_idx" ON ${s}."authlib_scim_users" ("organization_id", lower("user_name")) WHERE "deleted_at" IS NULL`,
      `CREATE INDEX "authlib_scim_users_user_id_idx" ON ${s}."authlib_scim_users" ("organization_id", "user_id")`,
      `CREATE TABLE ${s}."authlib_scim_groups" (
        "id" text PRIMARY KEY,
        "organization_id" text NOT NULL REFERENCES ${s}."authlib_organizations" ("id") ON DELETE CASCADE,
        "external_id" text,
        "display_name" text NOT NULL,
        "resource" jsonb NOT NULL,
        "version" integer NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL)`,
      `CREATE UNIQUE INDEX "authlib_scim_groups_display_name_idx" ON ${s}."authlib_scim_groups" ("organization_id", lower("display_name"))`,
      `CREATE TABLE ${s}."authlib_scim_group_members" (
        "organization_id" text NOT NULL,
        "group_id" text NOT NULL REFERENCES ${s}."authlib_scim_groups" ("id") ON DELETE CASCADE,
        "scim_user_id" text NOT NULL REFERENCES ${s}."authlib_scim_users" ("id") ON DELETE CASCADE,
        PRIMARY KEY ("group_id", "scim_user_id"))`,
      `CREATE INDEX "authlib_scim_group_members_user_idx" ON ${s}."authlib_scim_group_members" ("organization_id", "scim_user_id")`,
    ],
  },
  {
    version: 14,
    name: "session active organization",
    // Organizations (core's `setActiveOrganization`): a database session's row keeps the organization it
    // acts in, so the session check reads it with the session (one query) and no cookie carries it. No
    // foreign key: an organization deleted or a membership ended shows no active organization (core asks the
    // membership on every read), and a stale id is harmless. Nullable: adding it rewrites no row.
    statements: (s) => [`ALTER TABLE ${s}."authlib_sessions" ADD COLUMN "active_organization_id" text`],
  },
];

/**
 * Brings `schema` up to the latest migration, in one transaction: creates the schema and the
 * `authlib_migrations` history table when missing, then applies and records every missing version.
 * A transaction-scoped advisory lock per schema serialises concurrent runs (two deploys starting at
 * once): the second waits, then finds nothing left to do. Safe to run any number of times.
 */
export async function runMigrations(queryable: Queryable, schema: string): Promise<HostedDbMigrationResult> {
  const s = quoteIdentifier(schema);
  return queryable.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`authlib-migrate:${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${s}."authlib_migrations" (
        "version" integer PRIMARY KEY,
        "name" text NOT NULL,
        "applied_at" timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await tx.query<{ version: number }>(`SELECT "version" FROM ${s}."authlib_migrations"`);
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements(s)) await tx.query(statement);
      await tx.query(`INSERT INTO ${s}."authlib_migrations" ("version", "name") VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
      done.add(migration.version);
    }
    return { branch: schema, applied, version: Math.max(0, ...done) };
  });
}
