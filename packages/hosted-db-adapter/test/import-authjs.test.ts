/**
 * `importFromAuthjs` on a real PostgreSQL server: the Xata layout, conflicts (all or nothing), what a
 * re-run must never bring back, authenticators, and missing source tables. Rows are written with SQL in
 * each adapter's layout (the end-to-end test with the real `@auth/core` + `@auth/pg-adapter` is
 * packages/core/test/cli/migrate-authjs.test.ts; the Xata adapter needs Xata's HTTP API, which is not here).
 * Every group uses schemas of its own in the `test` database, dropped afterwards. Skipped, saying why,
 * when no server answers.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient, HostedDbError, importFromAuthjs } from "../src/index.js";
import { quoteIdentifier } from "../src/sql.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the importFromAuthjs tests");
const HOUR = 3_600_000;

let pool: pg.Pool;
const sourceSchemas: string[] = [];
const clients: HostedDbClient[] = [];

/** A new schema for Auth.js tables, made by `statements` (given the quoted schema name). */
async function sourceSchema(statements: (s: string) => string[]): Promise<string> {
  const schema = randomBranch("authjs_src");
  sourceSchemas.push(schema);
  const s = quoteIdentifier(schema);
  await pool.query(`CREATE SCHEMA ${s}`);
  for (const statement of statements(s)) await pool.query(statement);
  return schema;
}

/** A migrated authlib branch to import into. */
async function target(): Promise<HostedDbClient> {
  const client = new HostedDbClient({ databaseURL, branch: randomBranch("authjs_dst") });
  clients.push(client);
  await client.migrate();
  return client;
}

/** `@auth/pg-adapter`'s documented tables, plus an `authenticators` table in Auth.js's column names. */
const pgAdapterTables = (s: string) => [
  `CREATE TABLE ${s}.users (id SERIAL PRIMARY KEY, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT)`,
  `CREATE TABLE ${s}.accounts (id SERIAL PRIMARY KEY, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
    "providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT,
    session_state TEXT, token_type TEXT)`,
  `CREATE TABLE ${s}.sessions (id SERIAL PRIMARY KEY, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL)`,
  `CREATE TABLE ${s}.verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
];

describe.skipIf(!available)("importFromAuthjs", () => {
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL });
  });

  afterAll(async () => {
    for (const client of clients) {
      await dropBranch(client, client.branch);
      await client.close();
    }
    for (const schema of sourceSchemas) await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
    await pool.end();
  });

  it("reads @auth/xata-adapter's nextauth_* tables (links in the rows or only in the link tables)", async () => {
    const future = new Date(Date.now() + HOUR);
    const schema = await sourceSchema((s) => [
      `CREATE TABLE ${s}."nextauth_users" (xata_id text PRIMARY KEY, email text, "emailVerified" timestamptz, name text, image text)`,
      `CREATE TABLE ${s}."nextauth_accounts" (xata_id text PRIMARY KEY, "user" text, type text, provider text, "providerAccountId" text,
        refresh_token text, access_token text, expires_at integer, token_type text, scope text, id_token text, session_state text)`,
      `CREATE TABLE ${s}."nextauth_sessions" (xata_id text PRIMARY KEY, "sessionToken" text, expires timestamptz, "user" text)`,
      `CREATE TABLE ${s}."nextauth_verificationTokens" (xata_id text PRIMARY KEY, identifier text, token text, expires timestamptz)`,
      `CREATE TABLE ${s}."nextauth_users_accounts" (xata_id text PRIMARY KEY, "user" text, account text)`,
      `CREATE TABLE ${s}."nextauth_users_sessions" (xata_id text PRIMARY KEY, "user" text, session text)`,
      `INSERT INTO ${s}."nextauth_users" VALUES ('rec_alice', 'alice@example.com', '2025-01-02T03:04:05Z', 'Alice', NULL),
        ('rec_bob', 'bob@example.com', NULL, 'Bob', 'https://img.example/bob.png')`,
      `INSERT INTO ${s}."nextauth_accounts" VALUES
        ('rec_a1', 'rec_alice', 'oauth', 'github', '1001', 'r1', 'a1', 1900000000, 'Bearer', 'read:user', NULL, NULL),
        ('rec_a2', NULL, 'oidc', 'google', 'g-2', NULL, 'a2', NULL, 'bearer', 'openid', 'id2', NULL)`,
      `INSERT INTO ${s}."nextauth_users_accounts" VALUES ('rec_l1', 'rec_alice', 'rec_a1'), ('rec_l2', 'rec_bob', 'rec_a2')`,
      `INSERT INTO ${s}."nextauth_sessions" VALUES ('rec_s1', 'tok-bob', '${future.toISOString()}', NULL),
        ('rec_s2', 'tok-old', '2020-01-01T00:00:00Z', 'rec_alice')`,
      `INSERT INTO ${s}."nextauth_users_sessions" VALUES ('rec_ls1', 'rec_bob', 'rec_s1')`,
      `INSERT INTO ${s}."nextauth_verificationTokens" VALUES ('rec_v1', 'bob@example.com', 'hashed', '${future.toISOString()}')`,
    ]);
    const client = await target();
    const result = await importFromAuthjs(client, { from: databaseURL, schema, tables: "xata" });
    expect(result).toEqual({
      users: { read: 2, imported: 2 },
      accounts: { read: 2, imported: 2 },
      sessions: { read: 1, imported: 1 },
      authenticators: { read: 0, imported: 0 },
      pendingSignInLinks: 1,
    });
    const adapter = HostedDbAdapter(client);
    expect(await adapter.getUser("rec_alice")).toEqual({
      id: "rec_alice",
      email: "alice@example.com",
      emailVerified: new Date("2025-01-02T03:04:05Z"),
      name: "Alice",
      image: null,
    });
    expect(await adapter.getUserByAccount({ provider: "google", providerAccountId: "g-2" })).toMatchObject({ id: "rec_bob" });
    expect(await adapter.listAccountsByUserId("rec_alice")).toEqual([
      {
        userId: "rec_alice",
        type: "oauth",
        provider: "github",
        providerAccountId: "1001",
        access_token: "a1",
        refresh_token: "r1",
        expires_at: 1900000000,
        token_type: "bearer",
        scope: "read:user",
      },
    ]);
    expect(await adapter.getSessionAndUser("tok-bob")).toMatchObject({
      session: { userId: "rec_bob" },
      user: { email: "bob@example.com" },
    });
    expect(await adapter.getSessionAndUser("tok-old")).toBeNull();
    expect(await client.db.authlib_users_accounts.filter({ user: { id: "rec_bob" } })).toHaveLength(1);
    expect(await client.db.authlib_users_sessions.filter({ user: { id: "rec_bob" } })).toHaveLength(1);
    expect(await client.db.authlib_verificationTokens.filter()).toEqual([]);
  });

  it("a clash with authlib's own rows writes nothing (ImportConflict)", async () => {
    const schema = await sourceSchema((s) => [
      ...pgAdapterTables(s),
      `INSERT INTO ${s}.users (name, email) VALUES ('Alice', 'alice@example.com'), ('Bob', 'bob@example.com')`,
    ]);
    const client = await target();
    await client.db.authlib_users.create({ email: "bob@example.com", name: "Bob (signed up in authlib)" });
    const error = await importFromAuthjs(client, { from: databaseURL, schema, tables: "pg-adapter" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostedDbError);
    expect(error).toMatchObject({ code: "ImportConflict", message: expect.stringContaining("ids 2") });
    expect((await client.db.authlib_users.filter()).map((u) => u.email)).toEqual(["bob@example.com"]);
  });

  it("a re-run imports only new rows, never brings back what was ended or deleted in authlib; authenticators, trustEmails", async () => {
    const future = new Date(Date.now() + HOUR).toISOString();
    const schema = await sourceSchema((s) => [
      ...pgAdapterTables(s),
      `CREATE TABLE ${s}.authenticators ("credentialID" text PRIMARY KEY, "userId" integer NOT NULL, "providerAccountId" text NOT NULL,
        "credentialPublicKey" text NOT NULL, counter integer NOT NULL, "credentialDeviceType" text NOT NULL,
        "credentialBackedUp" boolean NOT NULL, transports text)`,
      `INSERT INTO ${s}.users (name, email) VALUES ('Alice', 'alice@example.com')`,
      `INSERT INTO ${s}.accounts ("userId", type, provider, "providerAccountId") VALUES (1, 'webauthn', 'passkey', 'cred-1')`,
      `INSERT INTO ${s}.authenticators VALUES ('cred-1', 1, 'cred-1', 'pk-base64', 7, 'multiDevice', true, 'internal,hybrid')`,
      `INSERT INTO ${s}.sessions ("userId", expires, "sessionToken") VALUES (1, '${future}', 'tok-1')`,
    ]);
    const client = await target();
    const adapter = HostedDbAdapter(client);
    const first = await importFromAuthjs(client, { from: databaseURL, schema, tables: "pg-adapter", trustEmails: true });
    expect(first.authenticators).toEqual({ read: 1, imported: 1 });
    expect(await adapter.getAuthenticator("cred-1")).toEqual({
      credentialID: "cred-1",
      userId: "1",
      providerAccountId: "cred-1",
      credentialPublicKey: "pk-base64",
      counter: 7,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal,hybrid",
      // Kept by authlib (migration 6): an imported passkey has no name nor last use yet.
      createdAt: expect.any(Date),
      name: null,
      lastUsedAt: null,
    });
    expect((await adapter.getUser("1"))?.emailVerified).toBeInstanceOf(Date);

    // Signed out in authlib; meanwhile the still-running Auth.js app signed someone new in.
    await adapter.deleteSession("tok-1");
    const s = quoteIdentifier(schema);
    await pool.query(`INSERT INTO ${s}.users (name, email) VALUES ('Carol', 'carol@example.com')`);
    await pool.query(`INSERT INTO ${s}.sessions ("userId", expires, "sessionToken") VALUES (2, '${future}', 'tok-2')`);

    const again = await importFromAuthjs(client, { from: databaseURL, schema, tables: "pg-adapter" });
    expect(again).toMatchObject({ users: { read: 2, imported: 1 }, sessions: { read: 2, imported: 1 }, authenticators: { imported: 0 } });
    expect(await adapter.getSessionAndUser("tok-1")).toBeNull();
    expect(await adapter.getSessionAndUser("tok-2")).toMatchObject({ user: { id: "2", email: "carol@example.com", emailVerified: null } });

    // Carol deletes her account in authlib; Auth.js (still running) gives her another session.
    await adapter.deleteUser("2");
    await pool.query(`INSERT INTO ${s}.sessions ("userId", expires, "sessionToken") VALUES (2, '${future}', 'tok-3')`);
    const third = await importFromAuthjs(client, { from: databaseURL, schema, tables: "pg-adapter" });
    expect(third).toMatchObject({ users: { read: 2, imported: 0 }, sessions: { read: 3, imported: 0 } });
    expect(await adapter.getUser("2")).toBeNull();
    expect(await adapter.getSessionAndUser("tok-3")).toBeNull();
  });

  it("missing Auth.js tables are InvalidOptions naming the table; a bad URL too", async () => {
    const schema = await sourceSchema(() => []);
    const client = await target();
    await expect(importFromAuthjs(client, { from: databaseURL, schema, tables: "pg-adapter" })).rejects.toMatchObject({
      code: "InvalidOptions",
      message: expect.stringContaining(`${schema}.users`),
    });
    await expect(importFromAuthjs(client, { from: databaseURL, schema, tables: "xata" })).rejects.toMatchObject({ code: "InvalidOptions" });
    await expect(importFromAuthjs(client, { from: "mysql://x", tables: "pg-adapter" })).rejects.toMatchObject({ code: "InvalidOptions" });
  });
});
