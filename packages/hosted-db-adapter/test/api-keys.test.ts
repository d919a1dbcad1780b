/**
 * API keys' methods of `HostedDbAdapter` (migration 9): core's conformance suite (the standard the
 * in-memory methods meet too) on PGlite and, when a server answers, on PostgreSQL, where the concurrent
 * touches race two adapters on two pools over one branch; then what only the database shows: the table's
 * key, foreign key and indexes, a user's keys deleted with the user, `pruneExpiredRows` deleting the keys
 * that ended past the retention, and the whole feature over the database: every key made, used and
 * rotated is in no column of any table of the branch (only its keyed hash and its public id are).
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeysApp } from "../../core/test/api-keys/helpers.js";
import { newApiKeyRecord, runApiKeyStoreSuite } from "../../core/test/helpers/api-key-store-suite.js";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient, pruneExpiredRows } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const DAY = 24 * 3_600_000;

async function newUser(adapter: ReturnType<typeof HostedDbAdapter>): Promise<string> {
  return (await adapter.createUser({ id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null })).id;
}

function runOnDatabase(name: string, connection: () => BaseClientOptions, rivalConnection?: () => BaseClientOptions): void {
  let client: HostedDbClient;
  let rival: HostedDbClient | undefined;
  const adapter = () => HostedDbAdapter(client);
  runApiKeyStoreSuite({
    name: `HostedDbAdapter API keys on ${name}`,
    setup: async () => {
      client = new HostedDbClient({ ...connection(), branch: randomBranch("apikeys") });
      await client.migrate();
      if (rivalConnection) rival = new HostedDbClient({ ...rivalConnection(), branch: client.branch });
    },
    store: adapter,
    rival: rivalConnection ? () => HostedDbAdapter(rival ?? client) : undefined,
    newUser: () => newUser(adapter()),
    deleteUser: async (id) => {
      await adapter().deleteUser(id);
    },
    teardown: async () => {
      await rival?.close();
      await dropBranch(client, client.branch);
      await client.close();
    },
  });

  describe(`the API keys table on ${name}`, () => {
    let db: HostedDbClient;
    beforeAll(async () => {
      db = new HostedDbClient({ ...connection(), branch: randomBranch("apikeys_table") });
      await db.migrate();
    });
    afterAll(async () => {
      await dropBranch(db, db.branch);
      await db.close();
    });

    it("has its key, the foreign key to users and the indexes of its lookups", async () => {
      const { rows: constraints } = await db.query<{ conname: string; definition: string }>(
        `SELECT conname, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = $1 AND conrelid::regclass::text LIKE '%authlib_api_keys%' AND contype IN ('p', 'f') ORDER BY conname`,
        [db.branch],
      );
      expect(constraints.map((row) => row.conname)).toEqual(["authlib_api_keys_pkey", "authlib_api_keys_user_id_fkey"]);
      expect(constraints[1]?.definition).toContain("ON DELETE CASCADE");
      const { rows: indexes } = await db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'authlib_api_keys' ORDER BY indexname`,
        [db.branch],
      );
      expect(indexes.map((row) => row.indexname)).toEqual([
        "authlib_api_keys_expires_at_idx",
        "authlib_api_keys_organization_id_idx",
        "authlib_api_keys_pkey",
        "authlib_api_keys_user_id_idx",
      ]);
    });

    it("prune deletes keys that ended (expired or revoked) more than 30 days ago, and nothing else", async () => {
      const adapter = HostedDbAdapter(db);
      const ada = await newUser(adapter);
      const now = Date.now();
      const old = [
        newApiKeyRecord(ada, { expiresAt: new Date(now - 31 * DAY) }),
        newApiKeyRecord(ada, { expiresAt: null, revokedAt: new Date(now - 31 * DAY) }),
      ];
      const kept = [
        newApiKeyRecord(ada, { expiresAt: new Date(now - 29 * DAY) }),
        newApiKeyRecord(ada, { expiresAt: null, revokedAt: new Date(now - DAY) }),
        newApiKeyRecord(ada, { expiresAt: null }),
        newApiKeyRecord(ada),
      ];
      for (const key of [...old, ...kept]) await adapter.createApiKey(key);
      expect(await pruneExpiredRows(db, { batchSize: 1 })).toMatchObject({ apiKeys: 2 });
      for (const key of old) expect(await adapter.getApiKey(key.id)).toBeNull();
      expect((await adapter.listApiKeysByUser(ada)).map((key) => key.id).sort()).toEqual(kept.map((key) => key.id).sort());
      expect(await pruneExpiredRows(db)).toMatchObject({ apiKeys: 0 });
    });

    it("the feature over the database: no key is in any column of any table; only its hash and public id", async () => {
      const app = apiKeysApp({}, HostedDbAdapter(db));
      const ada = await app.signedUp(`ada-${randomUUID()}@example.com`);
      const keys: string[] = [];
      const made = await app.auth.api.createApiKey(app.as(ada), { name: "ci", scopes: ["projects:read"] });
      keys.push(made.key);
      keys.push((await app.auth.api.rotateApiKey(app.as(ada), { keyId: made.apiKey.id })).key);
      keys.push((await app.auth.api.createApiKey(app.as(ada), { name: "other" })).key);
      for (const key of keys) await app.auth.api.verifyApiKey(app.bearing(key)).catch(() => undefined);
      const { rows: tables } = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
        [db.branch],
      );
      let dump = "";
      for (const { table_name } of tables) {
        const { rows } = await db.query(`SELECT * FROM "${db.branch}"."${table_name}"`);
        dump += JSON.stringify(rows);
      }
      expect(dump).toContain(made.apiKey.id);
      for (const key of keys) {
        expect(dump).not.toContain(key);
        expect(dump).not.toContain(key.slice(21, 53));
      }
    }, 120_000);
  });
}

let pglite: PGlite;
beforeAll(async () => {
  pglite = await PGlite.create();
});
afterAll(async () => {
  await pglite?.close();
});
runOnDatabase("PGlite (in memory)", () => ({ pglite }));

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the PostgreSQL API key tests");
describe.skipIf(!available)(`PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  let rivalPool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
    rivalPool = new pg.Pool({ connectionString: databaseURL, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await rivalPool?.end();
  });
  runOnDatabase(
    "PostgreSQL",
    () => ({ pool }),
    () => ({ pool: rivalPool }),
  );
});
