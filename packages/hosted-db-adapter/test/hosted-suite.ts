/**
 * Tests of what is specific to the hosted database (branches, migrations, tables, SQL shape), run on
 * every driver. Each client gets a fresh branch, dropped at the end.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BaseClientOptions,
  HostedDbAdapter,
  HostedDbClient,
  HostedDbError,
  type HostedDbQueryEvent,
  migrations,
} from "../src/index.js";
import { dropBranch, randomBranch } from "./helpers.js";

/** Inputs of `runHostedDbSuite`. */
export interface HostedDbSuiteOptions {
  name: string;
  /** Options that point a client at the shared database (`{ pglite }` or `{ pool }`), read when a test runs. */
  connection: () => BaseClientOptions;
}

export function runHostedDbSuite(options: HostedDbSuiteOptions): void {
  describe(options.name, () => {
    const clients: HostedDbClient[] = [];

    /** A client on a fresh branch (not migrated). */
    function newClient(extra: BaseClientOptions = {}): HostedDbClient {
      const client = new HostedDbClient({ ...options.connection(), branch: randomBranch(), ...extra });
      clients.push(client);
      return client;
    }

    async function migratedClient(extra: BaseClientOptions = {}): Promise<HostedDbClient> {
      const client = newClient(extra);
      await client.migrate();
      return client;
    }

    afterAll(async () => {
      const branches = new Set(clients.map((client) => client.branch));
      const [first] = clients;
      if (first) for (const branch of branches) await dropBranch(first, branch);
      for (const client of clients) await client.close();
    });

    describe("migrations", () => {
      it("migrate() creates every table and is idempotent", async () => {
        const client = newClient();
        const latest = migrations[migrations.length - 1].version;
        expect(await client.migrate()).toEqual({ branch: client.branch, applied: migrations.map((m) => m.version), version: latest });
        expect(await client.migrate()).toEqual({ branch: client.branch, applied: [], version: latest });
        const { rows } = await client.query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
          [client.branch],
        );
        expect(rows.map((row) => row.table_name)).toEqual([
          "authlib_accounts",
          "authlib_api_keys",
          "authlib_audit_events",
          "authlib_authenticators",
          "authlib_domains",
          "authlib_invitations",
          "authlib_members",
          "authlib_migrations",
          "authlib_oauth_clients",
          "authlib_oauth_codes",
          "authlib_oauth_consents",
          "authlib_oauth_device_codes",
          "authlib_oauth_grants",
          "authlib_oauth_signing_keys",
          "authlib_organizations",
          "authlib_rate_limits",
          "authlib_scim_group_members",
          "authlib_scim_groups",
          "authlib_scim_tokens",
          "authlib_scim_users",
          "authlib_session_records",
          "authlib_sessions",
          "authlib_sso_connections",
          "authlib_sso_identities",
          "authlib_user_bans",
          "authlib_users",
          "authlib_users_accounts",
          "authlib_users_sessions",
          "authlib_verificationTokens",
        ]);
        const history = await client.query<{ version: number }>(`SELECT "version" FROM "${client.branch}"."authlib_migrations"`);
        expect(history.rows).toEqual(migrations.map((m) => ({ version: m.version })));
      });

      // On a pool the calls really run in parallel; on PGlite they interleave on its one connection.
      it("concurrent migrate() calls apply each migration once", async () => {
        const first = newClient();
        const others = [0, 1, 2].map(() => newClient({ branch: first.branch }));
        const results = await Promise.all([first, ...others].map((client) => client.migrate()));
        expect(results.flatMap((result) => result.applied)).toEqual(migrations.map((m) => m.version));
        expect(new Set(results.map((result) => result.version))).toEqual(new Set([migrations.at(-1)?.version]));
      });

      it("using a branch before migrating fails with MissingMigration and says what to run", async () => {
        const adapter = HostedDbAdapter(newClient());
        const failure = adapter.getUser(randomUUID());
        await expect(failure).rejects.toBeInstanceOf(HostedDbError);
        await expect(failure).rejects.toMatchObject({
          code: "MissingMigration",
          message: expect.stringContaining("npx authlib-db migrate"),
        });
      });
    });

    describe("branches", () => {
      it("isolate their rows: the same email and id in two branches do not clash", async () => {
        const main = HostedDbAdapter(await migratedClient());
        const preview = HostedDbAdapter(await migratedClient());
        const user = { id: randomUUID(), email: "same@example.com", emailVerified: null, name: "Main", image: null };
        await main.createUser(user);
        await preview.createUser({ ...user, name: "Preview" });
        expect(await main.getUserByEmail(user.email)).toMatchObject({ name: "Main" });
        expect(await preview.getUserByEmail(user.email)).toMatchObject({ name: "Preview" });
        await main.deleteUser(user.id);
        expect(await main.getUser(user.id)).toBeNull();
        expect(await preview.getUser(user.id)).toMatchObject({ name: "Preview" });
      });

      it("getConfig() reports the branch", async () => {
        const client = newClient();
        expect(await client.getConfig()).toMatchObject({ branch: client.branch, databaseURL: expect.any(String) });
      });
    });

    describe("adapter SQL", () => {
      it("getSessionAndUser runs exactly one statement", async () => {
        const events: HostedDbQueryEvent[] = [];
        const client = await migratedClient({ onQuery: (event) => events.push(event) });
        const adapter = HostedDbAdapter(client);
        const user = await adapter.createUser({ id: randomUUID(), email: "one-query@example.com", emailVerified: null });
        const session = await adapter.createSession({
          sessionToken: randomUUID(),
          userId: user.id,
          expires: new Date(Date.now() + 60_000),
        });
        events.length = 0;
        expect(await adapter.getSessionAndUser(session.sessionToken)).toEqual({ session, user });
        expect(events).toHaveLength(1);
        expect(events[0].params).toEqual([session.sessionToken]);
        events.length = 0;
        expect(await adapter.getSessionAndUser("missing")).toBeNull();
        expect(events).toHaveLength(1);
      });

      it("getUserByAccount and useVerificationToken run one statement each", async () => {
        const events: HostedDbQueryEvent[] = [];
        const adapter = HostedDbAdapter(await migratedClient({ onQuery: (event) => events.push(event) }));
        const user = await adapter.createUser({ id: randomUUID(), email: "lookups@example.com", emailVerified: null });
        const account = { userId: user.id, type: "oauth" as const, provider: "github", providerAccountId: "42" };
        await adapter.linkAccount(account);
        await adapter.createVerificationToken({ identifier: "lookups@example.com", token: "hashed", expires: new Date() });
        events.length = 0;
        expect(await adapter.getUserByAccount(account)).toEqual(user);
        expect(events).toHaveLength(1);
        events.length = 0;
        expect(await adapter.useVerificationToken({ identifier: "lookups@example.com", token: "hashed" })).not.toBeNull();
        expect(events).toHaveLength(1);
        expect(events[0].sql).toMatch(/^DELETE FROM .* RETURNING /s);
      });

      it("stores SQL in values verbatim", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const email = `x'); DROP TABLE "${client.branch}"."authlib_users"; --"@example.com`;
        const user = await adapter.createUser({ id: "'; DELETE FROM authlib_users; --", email, emailVerified: null, name: "Robert'); --" });
        expect(await adapter.getUserByEmail(email)).toEqual(user);
        expect(await adapter.getUser("'; DELETE FROM authlib_users; --")).toEqual(user);
        const token = { identifier: "' OR '1'='1", token: "' OR '1'='1", expires: new Date() };
        expect(await adapter.useVerificationToken(token)).toBeNull();
        await adapter.createVerificationToken(token);
        expect(await adapter.useVerificationToken(token)).toEqual(token);
        expect(await client.db.authlib_users.filter()).toHaveLength(1);
      });

      it("stores emails as given: lookups are exact", async () => {
        const adapter = HostedDbAdapter(await migratedClient());
        const user = await adapter.createUser({ id: randomUUID(), email: "Mixed.Case@Example.com", emailVerified: null });
        expect(await adapter.getUserByEmail("Mixed.Case@Example.com")).toEqual(user);
        expect(await adapter.getUserByEmail("mixed.case@example.com")).toBeNull();
      });

      it("writes and removes the join rows of accounts and sessions", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const { db } = client;
        const user = await adapter.createUser({ id: randomUUID(), email: "joins@example.com", emailVerified: null });
        const account = { userId: user.id, type: "oidc" as const, provider: "google", providerAccountId: "g-1" };
        await adapter.linkAccount(account);
        await adapter.linkAccount({ ...account, providerAccountId: "g-2" });
        const session = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: new Date() });
        await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: new Date() });

        const accountRow = await db.authlib_accounts.findFirst({ provider: "google", providerAccountId: "g-1" });
        const sessionRow = await db.authlib_sessions.findFirst({ sessionToken: session.sessionToken });
        expect(await db.authlib_users_accounts.filter({ account: { id: accountRow?.id ?? "" } })).toMatchObject([
          { user: { id: user.id } },
        ]);
        expect(await db.authlib_users_sessions.filter({ session: { id: sessionRow?.id ?? "" } })).toMatchObject([
          { user: { id: user.id } },
        ]);
        expect(await db.authlib_users_accounts.filter({ user: { id: user.id } })).toHaveLength(2);
        expect(await db.authlib_users_sessions.filter({ user: { id: user.id } })).toHaveLength(2);

        await adapter.unlinkAccount(account);
        await adapter.deleteSession(session.sessionToken);
        expect(await db.authlib_users_accounts.filter({ user: { id: user.id } })).toHaveLength(1);
        expect(await db.authlib_users_sessions.filter({ user: { id: user.id } })).toHaveLength(1);

        await adapter.deleteUser(user.id);
        for (const table of [db.authlib_accounts, db.authlib_sessions, db.authlib_users_accounts, db.authlib_users_sessions]) {
          expect(await table.filter({ user: { id: user.id } })).toEqual([]);
        }
      });

      it("updateSession can move a session to another user, join row included", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const alice = await adapter.createUser({ id: randomUUID(), email: "alice@example.com", emailVerified: null });
        const bob = await adapter.createUser({ id: randomUUID(), email: "bob@example.com", emailVerified: null });
        const session = await adapter.createSession({ sessionToken: randomUUID(), userId: alice.id, expires: new Date() });
        expect(await adapter.updateSession({ sessionToken: session.sessionToken, userId: bob.id })).toEqual({ ...session, userId: bob.id });
        expect(await client.db.authlib_users_sessions.filter({ user: { id: bob.id } })).toHaveLength(1);
        expect(await client.db.authlib_users_sessions.filter({ user: { id: alice.id } })).toEqual([]);
      });

      it("a session's active organization (migration 14): kept by createSession, set and cleared by updateSession, untouched by an extension", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const user = await adapter.createUser({ id: randomUUID(), email: "org@example.com", emailVerified: null });
        const plain = await adapter.createSession({
          sessionToken: randomUUID(),
          userId: user.id,
          expires: new Date(Date.now() + 3_600_000),
        });
        expect(plain).not.toHaveProperty("activeOrganizationId");
        const { sessionToken } = await adapter.createSession({
          sessionToken: randomUUID(),
          userId: user.id,
          expires: new Date(Date.now() + 3_600_000),
          activeOrganizationId: "org-1",
        });
        expect((await adapter.getSessionAndUser(sessionToken))?.session.activeOrganizationId).toBe("org-1");
        expect(await adapter.updateSession({ sessionToken, activeOrganizationId: "org-2" })).toMatchObject({
          activeOrganizationId: "org-2",
        });
        const extended = await adapter.updateSession({ sessionToken, expires: new Date(Date.now() + 7_200_000) });
        expect(extended?.activeOrganizationId).toBe("org-2");
        expect((await client.db.authlib_sessions.findFirst({ sessionToken }))?.activeOrganizationId).toBe("org-2");
        expect(await adapter.updateSession({ sessionToken, activeOrganizationId: null })).not.toHaveProperty("activeOrganizationId");
        expect((await adapter.getSessionAndUser(sessionToken))?.session).not.toHaveProperty("activeOrganizationId");
      });

      it("returns only the token fields an account has (no null keys)", async () => {
        const client = await migratedClient();
        const adapter = HostedDbAdapter(client);
        const user = await adapter.createUser({ id: randomUUID(), email: "minimal@example.com", emailVerified: null });
        const account = { userId: user.id, type: "email" as const, provider: "email", providerAccountId: "minimal@example.com" };
        expect(await adapter.linkAccount(account)).toEqual(account);
        expect(await adapter.getAccount(account.providerAccountId, account.provider)).toEqual(account);
        expect(await client.db.authlib_accounts.findFirst({ provider: "email" })).toMatchObject({ access_token: null, expires_at: null });
      });

      it("lower-cases token_type on the way out", async () => {
        const adapter = HostedDbAdapter(await migratedClient());
        const user = await adapter.createUser({ id: randomUUID(), email: "bearer@example.com", emailVerified: null });
        const account = {
          userId: user.id,
          type: "oauth" as const,
          provider: "x",
          providerAccountId: "1",
          token_type: "Bearer" as Lowercase<string>,
        };
        await adapter.linkAccount(account);
        expect(await adapter.getAccount("1", "x")).toMatchObject({ token_type: "bearer" });
      });

      it("createUser without an id gets a generated one", async () => {
        const adapter = HostedDbAdapter(await migratedClient());
        const user = await adapter.createUser({ id: "", email: "passkey@example.com", emailVerified: null });
        expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(await adapter.getUser(user.id)).toEqual(user);
      });
    });

    describe("tables", () => {
      it("create, read, filter, update and delete records with their metadata", async () => {
        const { db } = await migratedClient();
        const created = await db.authlib_users.create({ email: "table@example.com", name: "Table" });
        expect(created).toMatchObject({ email: "table@example.com", name: "Table", image: null, emailVerified: null });
        expect(created.meta).toMatchObject({ version: 0, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
        expect(await db.authlib_users.read(created.id)).toEqual(created);
        expect(await db.authlib_users.read(randomUUID())).toBeNull();

        const updated = await db.authlib_users.update(created.id, { name: "Renamed", image: undefined });
        expect(updated).toMatchObject({ id: created.id, name: "Renamed", email: "table@example.com", meta: { version: 1 } });
        expect(updated?.meta.updatedAt.getTime()).toBeGreaterThanOrEqual(created.meta.updatedAt.getTime());
        expect(await db.authlib_users.update(randomUUID(), { name: "x" })).toBeNull();

        expect(await db.authlib_users.filter({ name: "Renamed" })).toEqual([updated]);
        expect(await db.authlib_users.filter({ image: null })).toEqual([updated]);
        expect(await db.authlib_users.findFirst({ name: "Table" })).toBeNull();

        expect(await db.authlib_users.delete(created.id)).toEqual(updated);
        expect(await db.authlib_users.delete(created.id)).toBeNull();
      });

      it("refuse undefined filter values and unfiltered bulk writes", async () => {
        const { db } = await migratedClient();
        await expect(db.authlib_users.findFirst({ email: undefined })).rejects.toThrow(TypeError);
        await expect(db.authlib_users.deleteWhere({})).rejects.toThrow(TypeError);
        await expect(db.authlib_users.updateWhere({}, { name: "all" })).rejects.toThrow(TypeError);
      });

      it("reject a link to a record that does not exist", async () => {
        const { db } = await migratedClient();
        await expect(db.authlib_sessions.create({ sessionToken: "t", user: { id: randomUUID() } })).rejects.toThrow();
      });

      it("a transaction rolls back when its function throws", async () => {
        const client = await migratedClient();
        await expect(
          client.transaction(async (tx) => {
            await tx.db.authlib_users.create({ email: "rolled-back@example.com" });
            throw new Error("abort");
          }),
        ).rejects.toThrow("abort");
        expect(await client.db.authlib_users.findFirst({ email: "rolled-back@example.com" })).toBeNull();
      });
    });
  });
}
