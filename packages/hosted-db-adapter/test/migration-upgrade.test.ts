/**
 * Upgrades from every schema version ever shipped (docs/compatibility.md): for each version k before the
 * latest, a branch is made at k from the migrations' frozen SQL (`shipped-migrations.json`), filled with
 * the rows an application had then (a user, a linked account, a database session, a verification token, a
 * passkey, a rate-limit window, a JWT session's record, an audit row, an organization, an OAuth client and
 * grant: whatever the schema of k has), and migrated to the latest. Every row keeps every value it had, the new columns read as their defaults, and
 * the data is usable: the session cookie still resolves to its user through `createAuth`, the token is
 * still single-use, the passkey signs in and takes a name. On PGlite (in memory) and, when a server
 * answers, on PostgreSQL.
 *
 * The rows are written by today's adapter into a latest branch and copied, column by column, into the old
 * branch: migrations are additive, so an old column holds what today's code writes into it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAuth } from "@authlib/core";
import type { AdapterUser } from "@authlib/core/adapters";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BaseClientOptions,
  HostedDbAdapter,
  HostedDbClient,
  hostedDbAuditStore,
  hostedDbRateLimitStore,
  hostedDbSessionStore,
  migrations,
} from "../src/index.js";
import { quoteIdentifier } from "../src/sql.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

interface ShippedMigration {
  version: number;
  name: string;
  statements: string[];
}

/** The schema name the frozen statements are written for. */
const PLACEHOLDER = '"__authlib_schema__"';
const shipped: ShippedMigration[] = JSON.parse(readFileSync(join(import.meta.dirname, "shipped-migrations.json"), "utf8"));
const latest = Math.max(...shipped.map((m) => m.version));
/** Every version an application can be at before it upgrades: 0 (never migrated) to the one before the latest. */
const earlier = Array.from({ length: latest }, (_, k) => k);

/** One statement on one line, so that re-wrapping a migration's source is no change. */
const oneLine = (sql: string) => sql.replace(/\s*\n\s*/g, " ");

/** Every table the migrations make, parents before children (the copy respects the foreign keys). */
const TABLES = [
  "authlib_users",
  "authlib_accounts",
  "authlib_sessions",
  "authlib_users_accounts",
  "authlib_users_sessions",
  "authlib_verificationTokens",
  "authlib_authenticators",
  "authlib_rate_limits",
  "authlib_session_records",
  "authlib_audit_events",
  "authlib_organizations",
  "authlib_members",
  "authlib_invitations",
  "authlib_domains",
  "authlib_oauth_clients",
  "authlib_oauth_consents",
  "authlib_oauth_codes",
  "authlib_oauth_grants",
  "authlib_oauth_device_codes",
  "authlib_oauth_signing_keys",
  "authlib_api_keys",
  "authlib_user_bans",
  "authlib_sso_connections",
  "authlib_sso_identities",
  "authlib_scim_tokens",
  "authlib_scim_users",
  "authlib_scim_groups",
  "authlib_scim_group_members",
];

describe("shipped migrations", () => {
  it("never change once released; a new one is appended to shipped-migrations.json", () => {
    const current = migrations.map((m) => ({ version: m.version, name: m.name, statements: m.statements(PLACEHOLDER).map(oneLine) }));
    for (const frozen of shipped) {
      expect(
        current.find((m) => m.version === frozen.version),
        `Migration ${frozen.version} ("${frozen.name}") was released: it may not change. Put the change in a new migration.`,
      ).toEqual(frozen);
    }
    const added = current.filter((m) => !shipped.some((s) => s.version === m.version));
    expect(
      added,
      `Freeze the new migration(s): append them to packages/hosted-db-adapter/test/shipped-migrations.json:\n${JSON.stringify(added, null, 2)}`,
    ).toEqual([]);
    expect(current.map((m) => m.version)).toEqual(current.map((_, i) => i + 1));
  });
});

/** What the latest branch holds, to be copied into each old one. */
interface Fixture {
  user: AdapterUser;
  sessionToken: string;
  sessionExpires: Date;
  jwtRecordId: string;
}

const ADA = {
  id: "u-ada",
  email: "ada@example.com",
  name: "Ada",
  image: "https://example.com/ada.png",
  emailVerified: new Date("2026-01-02T03:04:05Z"),
};
const CREDENTIAL_ID = "cred-ada-laptop";

/** Writes the representative rows through today's adapter and stores into a migrated branch. */
async function writeFixture(client: HostedDbClient): Promise<Fixture> {
  const adapter = HostedDbAdapter(client);
  const user = await adapter.createUser(ADA);
  await adapter.linkAccount({
    userId: user.id,
    type: "oidc",
    provider: "github",
    providerAccountId: "gh-1",
    access_token: "at-1",
    refresh_token: "rt-1",
    expires_at: 2_000_000_000,
    scope: "openid email",
    token_type: "bearer",
    id_token: "id-1",
  });
  const sessionExpires = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  sessionExpires.setMilliseconds(0);
  const session = await adapter.createSession({
    sessionToken: "st-ada-1",
    userId: user.id,
    expires: sessionExpires,
    userAgent: "Chrome on Linux",
    clientAddress: "203.0.113.0/24",
    provider: "github",
  });
  await adapter.createVerificationToken({ identifier: ADA.email, token: "vt-hash-1", expires: new Date(Date.now() + 3600 * 1000) });
  await adapter.createAuthenticator({
    credentialID: CREDENTIAL_ID,
    userId: user.id,
    providerAccountId: CREDENTIAL_ID,
    counter: 7,
    credentialBackedUp: true,
    credentialPublicKey: "pk-base64",
    credentialDeviceType: "multiDevice",
    transports: "internal,hybrid",
    name: "Laptop",
  });
  await hostedDbRateLimitStore(client).increment("signin:ada@example.com", 3600 * 1000);
  const jwtRecordId = "sid-jwt-1";
  await hostedDbSessionStore(client).create({
    id: jwtRecordId,
    userId: "u-jwt-only",
    createdAt: new Date("2026-03-01T00:00:00Z"),
    lastSeenAt: new Date("2026-03-02T00:00:00Z"),
    expires: new Date(Date.now() + 3600 * 1000),
    userAgent: "Firefox on Windows",
    clientAddress: null,
    provider: "credentials",
  });
  await hostedDbAuditStore(client).write({
    time: new Date("2026-03-03T00:00:00Z"),
    type: "signIn",
    outcome: "success",
    userId: user.id,
    provider: "github",
    clientAddressPrefix: "203.0.113.0/24",
    userAgentLabel: "Chrome on Linux",
    detail: null,
  });
  await writeOrganization(adapter, user.id);
  await writeAuthorizationServer(adapter, user.id);
  return { user, sessionToken: session.sessionToken, sessionExpires, jwtRecordId };
}

const ACME = { id: "org-acme", name: "Acme", slug: "acme", policy: { sessionMaxAge: 3600 }, domainJoin: "suggest" as const };

/** An organization (migration 7) with its owner, an invitation and a claimed domain. */
async function writeOrganization(adapter: ReturnType<typeof HostedDbAdapter>, userId: string): Promise<void> {
  const createdAt = new Date("2026-05-01T00:00:00Z");
  await adapter.createOrganization({ ...ACME, createdAt });
  await adapter.createMember({ organizationId: ACME.id, userId, role: "owner", createdAt });
  await adapter.createInvitation({
    organizationId: ACME.id,
    email: "bob@example.com",
    role: "member",
    invitedBy: userId,
    status: "pending",
    tokenHash: "ab".repeat(32),
    expires: new Date(Date.now() + 3600 * 1000),
    createdAt,
  });
  await adapter.createDomain({ organizationId: ACME.id, name: "example.com", token: "authlib-token", verifiedAt: createdAt, createdAt });
}

const CLI_CLIENT = {
  clientId: "acme-cli",
  clientSecretHash: null,
  name: "Acme CLI",
  redirectUris: ["http://127.0.0.1/callback"],
  grantTypes: ["authorization_code" as const, "refresh_token" as const],
  tokenEndpointAuthMethod: "none" as const,
  scopes: null,
  jwks: null,
  clientUri: null,
  logoUri: null,
  source: "registered" as const,
  createdAt: new Date("2026-06-01T00:00:00Z"),
};
const CLI_GRANT_ID = "grant-acme-cli";

/** A client of the authorization server (migration 8), the user's consent to it and a grant at generation 0. */
async function writeAuthorizationServer(adapter: ReturnType<typeof HostedDbAdapter>, userId: string): Promise<void> {
  const at = new Date("2026-06-01T00:00:00Z");
  await adapter.createOAuthClient(CLI_CLIENT);
  await adapter.saveOAuthConsent({ userId, clientId: CLI_CLIENT.clientId, scopes: ["openid", "offline_access"], updatedAt: at });
  await adapter.createOAuthGrant({
    id: CLI_GRANT_ID,
    userId,
    clientId: CLI_CLIENT.clientId,
    scopes: ["openid", "offline_access"],
    resources: ["https://api.example.com"],
    secret: "cd".repeat(32),
    generation: 0,
    refreshable: true,
    authTime: 1_780_000_000,
    aal: 1,
    amr: ["pwd"],
    createdAt: at,
    lastUsedAt: at,
    expiresAt: new Date(Date.now() + 3600 * 1000),
    revokedAt: null,
  });
}

/** Makes `branch` as `migrate()` left it at version `k`, from the frozen SQL of versions 1..k. */
async function buildAt(client: HostedDbClient, branch: string, k: number): Promise<void> {
  if (k === 0) return;
  const s = quoteIdentifier(branch);
  await client.transaction(async (tx) => {
    await tx.query(`CREATE SCHEMA ${s}`);
    // The history table as runMigrations has always made it.
    await tx.query(
      `CREATE TABLE ${s}."authlib_migrations" ("version" integer PRIMARY KEY, "name" text NOT NULL, "applied_at" timestamptz NOT NULL DEFAULT now())`,
    );
    for (const migration of shipped.filter((m) => m.version <= k)) {
      for (const statement of migration.statements) await tx.query(statement.replaceAll(PLACEHOLDER, s));
      await tx.query(`INSERT INTO ${s}."authlib_migrations" ("version", "name") VALUES ($1, $2)`, [migration.version, migration.name]);
    }
  });
}

/** The columns of each authlib table in `branch`, in their order. */
async function columnsOf(client: HostedDbClient, branch: string): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    [branch],
  );
  const columns = new Map<string, string[]>();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
  return columns;
}

/** Every row of `table`, with `columns` only, in a stable order. */
async function rowsOf(client: HostedDbClient, branch: string, table: string, columns: string[]) {
  const list = columns.map(quoteIdentifier).join(", ");
  const { rows } = await client.query(`SELECT ${list} FROM ${quoteIdentifier(branch)}.${quoteIdentifier(table)} ORDER BY ${list}`);
  return rows;
}

function runUpgrades(name: string, connection: () => BaseClientOptions): void {
  describe(name, () => {
    let source: HostedDbClient;
    let fixture: Fixture;
    const made: HostedDbClient[] = [];

    beforeAll(async () => {
      source = new HostedDbClient({ ...connection(), branch: randomBranch("upgrade_src") });
      await source.migrate();
      fixture = await writeFixture(source);
    });

    afterAll(async () => {
      for (const client of made) {
        await dropBranch(client, client.branch);
        await client.close();
      }
      await dropBranch(source, source.branch);
      await source.close();
    });

    it.each(earlier)(
      "from version %i: every row intact, the session still signs its user in",
      async (k) => {
        const client = new HostedDbClient({ ...connection(), branch: randomBranch(`upgrade_v${k}`) });
        made.push(client);
        const branch = client.branch;
        await buildAt(client, branch, k);

        // The rows of version k: today's rows, cut to the columns that version has.
        const before = await columnsOf(client, branch);
        for (const table of TABLES) {
          const columns = before.get(table);
          if (!columns) continue;
          const list = columns.map(quoteIdentifier).join(", ");
          const overriding = table === "authlib_audit_events" ? "OVERRIDING SYSTEM VALUE" : "";
          await client.query(
            `INSERT INTO ${quoteIdentifier(branch)}.${quoteIdentifier(table)} (${list}) ${overriding}
           SELECT ${list} FROM ${quoteIdentifier(source.branch)}.${quoteIdentifier(table)}`,
          );
        }
        const snapshot = new Map<string, unknown[]>();
        for (const [table, columns] of before) snapshot.set(table, await rowsOf(client, branch, table, columns));
        if (k >= 1) expect(snapshot.get("authlib_sessions")).toHaveLength(1);

        const result = await client.migrate();
        expect(result.applied).toEqual(shipped.filter((m) => m.version > k).map((m) => m.version));
        expect(result.version).toBe(latest);

        // Every table of the latest schema, and every old row with every old value.
        const after = await columnsOf(client, branch);
        expect([...after.keys()].sort()).toEqual([...(await columnsOf(source, source.branch)).keys()].sort());
        for (const [table, columns] of before) {
          expect(after.get(table)?.slice(0, columns.length), `${table}: columns kept in place`).toEqual(columns);
          const rows = await rowsOf(client, branch, table, columns);
          // The history gains the versions applied now, after the old ones.
          const kept = table === "authlib_migrations" ? rows.slice(0, snapshot.get(table)?.length) : rows;
          expect(kept, `${table}: rows after the upgrade from ${k}`).toEqual(snapshot.get(table));
          // A column a later migration added reads as NULL in an old row.
          const added = (after.get(table) ?? []).filter((column) => !columns.includes(column));
          if (added.length === 0) continue;
          for (const row of await rowsOf(client, branch, table, added)) {
            expect(Object.values(row as object), `${table}: ${added.join(", ")} of an old row`).toEqual(added.map(() => null));
          }
        }

        const adapter = HostedDbAdapter(client);
        if (k === 0) {
          // A branch that was never migrated gets every table: the adapter works from the first call.
          const user = await adapter.createUser({ id: "", email: "new@example.com", emailVerified: null });
          await adapter.createSession({ sessionToken: "st-new", userId: user.id, expires: new Date(Date.now() + 60_000) });
          expect((await adapter.getSessionAndUser("st-new"))?.user.email).toBe("new@example.com");
          return;
        }

        // The database session resolves to its user, through the adapter and through a request's cookie.
        const found = await adapter.getSessionAndUser(fixture.sessionToken);
        expect(found?.user).toEqual(fixture.user);
        expect(found?.session).toMatchObject({ sessionToken: fixture.sessionToken, userId: ADA.id, expires: fixture.sessionExpires });
        const auth = createAuth({
          secret: "migration-upgrade-secret-0123456789abcdef",
          trustHost: true,
          adapter,
          providers: [],
          session: { strategy: "database" },
          logger: { error: () => {}, warn: () => {} },
        });
        const { session } = await auth.api.getSession({
          headers: { cookie: `authlib.session-token=${fixture.sessionToken}` },
          url: "http://localhost:3000",
        });
        expect(session?.user).toMatchObject({ email: ADA.email, name: ADA.name });

        // The linked account, the address, the single-use token, the passkey.
        expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "gh-1" })).toEqual(fixture.user);
        expect(await adapter.getUserByEmail(ADA.email)).toEqual(fixture.user);
        expect(await adapter.getAccount("gh-1", "github")).toMatchObject({
          userId: ADA.id,
          refresh_token: "rt-1",
          expires_at: 2_000_000_000,
        });
        expect(await adapter.useVerificationToken({ identifier: ADA.email, token: "vt-hash-1" })).toMatchObject({ token: "vt-hash-1" });
        expect(await adapter.useVerificationToken({ identifier: ADA.email, token: "vt-hash-1" })).toBeNull();
        const passkey = await adapter.getAuthenticator(CREDENTIAL_ID);
        expect(passkey).toMatchObject({ userId: ADA.id, counter: 7, credentialPublicKey: "pk-base64", transports: "internal,hybrid" });
        // A passkey made before migration 6 has no name and no last use until it signs in.
        if (k < 6) expect(passkey).toMatchObject({ name: null, lastUsedAt: null });
        const usedAt = new Date("2026-04-01T00:00:00Z");
        expect(await adapter.updateAuthenticator(CREDENTIAL_ID, { counter: 8, name: "Laptop", lastUsedAt: usedAt })).toMatchObject({
          counter: 8,
          name: "Laptop",
          lastUsedAt: usedAt,
        });
        expect(await adapter.listAuthenticatorsByUserId(ADA.id)).toHaveLength(1);

        // Session control lists the database session; one from before migration 4 was last seen when made.
        const listed = await adapter.listSessionRecords(ADA.id);
        expect(listed).toHaveLength(1);
        expect(listed[0]).toMatchObject({ userId: ADA.id, expires: fixture.sessionExpires });
        if (k < 4) expect(listed[0]?.lastSeenAt).toEqual(listed[0]?.createdAt);
        else expect(listed[0]).toMatchObject({ userAgent: "Chrome on Linux", provider: "github" });
        // A JWT session's record (migration 4) and an audit row (migration 5) read back when they were kept.
        const jwtRecord = await adapter.getSessionRecord("u-jwt-only", fixture.jwtRecordId);
        if (k >= 4) expect(jwtRecord).toMatchObject({ userAgent: "Firefox on Windows", provider: "credentials" });
        else expect(jwtRecord).toBeNull();
        const audit = await hostedDbAuditStore(client).list({ userId: ADA.id });
        expect(audit.map((event) => event.type)).toEqual(k >= 5 ? ["signIn"] : []);
        // A rate-limit window (migration 2) keeps counting where it was.
        if (k >= 2) expect((await hostedDbRateLimitStore(client).increment("signin:ada@example.com", 3600 * 1000)).count).toBe(2);

        // Organizations (migration 7): kept when they were there, and made on the upgraded branch when not.
        if (k >= 7) expect(await adapter.getOrganizationBySlug(ACME.slug)).toMatchObject(ACME);
        else {
          expect(await adapter.listMembershipsByUser(ADA.id)).toEqual([]);
          await writeOrganization(adapter, ADA.id);
        }
        expect(await adapter.listMembershipsByUser(ADA.id)).toMatchObject([{ organizationId: ACME.id, role: "owner" }]);
        expect(await adapter.listDomainsByName("example.com")).toHaveLength(1);

        // The authorization server (migration 8): kept when it was there, and made on the upgraded branch when not.
        if (k >= 8) expect(await adapter.getOAuthClient(CLI_CLIENT.clientId)).toEqual(CLI_CLIENT);
        else {
          expect(await adapter.listOAuthGrantsByUser(ADA.id)).toEqual([]);
          await writeAuthorizationServer(adapter, ADA.id);
        }
        expect(await adapter.getOAuthConsent(ADA.id, CLI_CLIENT.clientId)).toMatchObject({ scopes: ["openid", "offline_access"] });
        expect(await adapter.advanceOAuthGrant(CLI_GRANT_ID, 0, new Date())).toBe(true);
        expect(await adapter.advanceOAuthGrant(CLI_GRANT_ID, 0, new Date())).toBe(false);

        // New writes work on the upgraded branch: another session, then signing out of the old one.
        await adapter.createSession({
          sessionToken: "st-ada-2",
          userId: ADA.id,
          expires: new Date(Date.now() + 60_000),
          provider: "github",
        });
        expect(await adapter.listSessionRecords(ADA.id)).toHaveLength(2);
        await adapter.deleteSession(fixture.sessionToken);
        expect(await adapter.getSessionAndUser(fixture.sessionToken)).toBeNull();
      },
      60_000,
    );
  });
}

let pglite: PGlite;
beforeAll(async () => {
  pglite = await PGlite.create();
});
afterAll(async () => {
  await pglite?.close();
});
runUpgrades("upgrades on PGlite (in memory)", () => ({ pglite }));

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the PostgreSQL migration upgrades");
describe.skipIf(!available)(`PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
  });
  runUpgrades("upgrades on PostgreSQL", () => ({ pool }));
});
