/**
 * The authorization server's methods of `HostedDbAdapter` (migration 8): core's store conformance suite (the
 * standard the in-memory methods are held to as well) on one in-memory PGlite and, when a server answers,
 * on PostgreSQL, where the concurrent compare-and-set cases race two adapters on two pools over one branch;
 * then what only the database shows: the keys, foreign keys and indexes of the tables, a stored value
 * outside the contract reported rather than handed on, and `pruneExpiredRows` deleting exactly the rows
 * nothing can use any more.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dateIn,
  newClient,
  newCode,
  newDeviceCode,
  newGrant,
  newSigningKey,
} from "../../core/test/helpers/authorization-server-records.js";
import { runAuthorizationServerStoreSuite } from "../../core/test/helpers/authorization-server-store-suite.js";
import { type BaseClientOptions, HostedDbAdapter, HostedDbClient, pruneExpiredRows } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A stored user of `adapter`: its id. */
async function newUser(adapter: ReturnType<typeof HostedDbAdapter>): Promise<string> {
  return (await adapter.createUser({ id: randomUUID(), email: `${randomUUID()}@example.com`, emailVerified: null })).id;
}

/**
 * The suite and the table checks on one database. `rivalConnection`, when given, points a second client at
 * the same database through another pool: the concurrent cases race the two.
 */
function runOnDatabase(name: string, connection: () => BaseClientOptions, rivalConnection?: () => BaseClientOptions): void {
  let client: HostedDbClient;
  let rival: HostedDbClient | undefined;
  const adapter = () => HostedDbAdapter(client);
  runAuthorizationServerStoreSuite({
    name: `HostedDbAdapter authorization server on ${name}`,
    setup: async () => {
      client = new HostedDbClient({ ...connection(), branch: randomBranch("oauth") });
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

  describe(`the authorization server tables on ${name}`, () => {
    let db: HostedDbClient;
    beforeAll(async () => {
      db = new HostedDbClient({ ...connection(), branch: randomBranch("oauth_tables") });
      await db.migrate();
    });
    afterAll(async () => {
      await dropBranch(db, db.branch);
      await db.close();
    });

    it("have their keys, foreign keys to users and the indexes of their lookups", async () => {
      const { rows: constraints } = await db.query<{ conname: string; definition: string }>(
        `SELECT conname, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
         WHERE n.nspname = $1 AND conrelid::regclass::text LIKE '%authlib_oauth_%' AND contype IN ('p', 'f') ORDER BY conname`,
        [db.branch],
      );
      const byName = Object.fromEntries(constraints.map((row) => [row.conname, row.definition]));
      expect(byName).toMatchObject({
        authlib_oauth_clients_pkey: "PRIMARY KEY (client_id)",
        authlib_oauth_consents_pkey: "PRIMARY KEY (user_id, client_id)",
        authlib_oauth_codes_pkey: "PRIMARY KEY (code_hash)",
        authlib_oauth_grants_pkey: "PRIMARY KEY (id)",
        authlib_oauth_device_codes_pkey: "PRIMARY KEY (device_code_hash)",
        authlib_oauth_signing_keys_pkey: "PRIMARY KEY (kid)",
      });
      for (const table of ["consents", "codes", "grants", "device_codes"])
        expect(byName[`authlib_oauth_${table}_user_id_fkey`], table).toMatch(/REFERENCES .*authlib_users\(id\) ON DELETE CASCADE$/);
      // Clients are the app's, and a client declared in the configuration is not stored: no foreign key to them.
      expect(Object.keys(byName).filter((constraint) => constraint.includes("client_id_fkey"))).toEqual([]);
      const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename LIKE 'authlib_oauth_%'",
        [db.branch],
      );
      const index = Object.fromEntries(indexes.map((row) => [row.indexname, row.indexdef]));
      expect(index.authlib_oauth_grants_user_id_idx).toMatch(/\(user_id, created_at\)$/);
      expect(index.authlib_oauth_device_codes_user_code_idx).toMatch(/\(user_code, expires_at\)$/);
      for (const table of ["codes", "device_codes"]) {
        expect(index[`authlib_oauth_${table}_user_id_idx`], table).toMatch(/\(user_id\)$/);
        expect(index[`authlib_oauth_${table}_expires_at_idx`], table).toMatch(/\(expires_at\)$/);
      }
    });

    it("refuse a code or grant of a user who is not stored, and a status or method outside the contract", async () => {
      const adapter = HostedDbAdapter(db);
      const clientId = newClient().clientId;
      await expect(adapter.createOAuthAuthorizationCode(newCode(randomUUID(), clientId))).rejects.toThrow();
      await expect(adapter.createOAuthGrant(newGrant(randomUUID(), clientId))).rejects.toThrow();
      const device = newDeviceCode(clientId);
      await adapter.createOAuthDeviceCode(device);
      await expect(adapter.updateOAuthDeviceCode(device.deviceCodeHash, "pending", { status: "expired" as "used" })).rejects.toThrow();
      expect(await adapter.getOAuthDeviceCode(device.deviceCodeHash)).toEqual(device);
      await expect(adapter.createOAuthClient(newClient({ tokenEndpointAuthMethod: "client_secret_jwt" as "none" }))).rejects.toThrow();
    });

    it("report a stored grant type outside the contract instead of handing it on", async () => {
      const adapter = HostedDbAdapter(db);
      const client = newClient();
      await adapter.createOAuthClient(client);
      await db.query(`UPDATE "${db.branch}"."authlib_oauth_clients" SET "grant_types" = ARRAY['password'] WHERE "client_id" = $1`, [
        client.clientId,
      ]);
      await expect(adapter.getOAuthClient(client.clientId)).rejects.toMatchObject({ code: "UnexpectedData" });
    });
  });

  describe(`pruneExpiredRows on the authorization server tables on ${name}`, () => {
    let db: HostedDbClient;
    beforeAll(async () => {
      db = new HostedDbClient({ ...connection(), branch: randomBranch("oauth_prune") });
      await db.migrate();
    });
    afterAll(async () => {
      await dropBranch(db, db.branch);
      await db.close();
    });

    it("deletes expired codes and keys and grants that ended a day ago; nothing live, nothing recent, no client", async () => {
      const adapter = HostedDbAdapter(db);
      const ada = await newUser(adapter);
      const client = newClient({ source: "metadata-document", createdAt: dateIn(-365 * DAY) });
      await adapter.createOAuthClient(client);
      const clientId = client.clientId;

      const expiredCodes = [
        newCode(ada, clientId, { expiresAt: dateIn(-1000) }),
        newCode(ada, clientId, { expiresAt: dateIn(-DAY), usedAt: dateIn(-DAY), grantId: randomUUID() }),
      ];
      const liveCode = newCode(ada, clientId, { usedAt: dateIn(-1000), grantId: randomUUID() });
      for (const code of [...expiredCodes, liveCode]) await adapter.createOAuthAuthorizationCode(code);

      const expiredDevice = newDeviceCode(clientId, { expiresAt: dateIn(-1000), createdAt: dateIn(-HOUR) });
      const liveDevice = newDeviceCode(clientId, { status: "approved", userId: ada, authTime: 1, aal: 1, amr: ["pwd"] });
      for (const code of [expiredDevice, liveDevice]) await adapter.createOAuthDeviceCode(code);

      const grant = (overrides: Parameters<typeof newGrant>[2]) => newGrant(ada, clientId, overrides);
      const ended = [
        // Its refresh lifetime ended, and its last access token with it.
        grant({ lastUsedAt: dateIn(-31 * DAY), expiresAt: dateIn(-DAY) }),
        // Revoked two days ago.
        grant({ lastUsedAt: dateIn(-3 * DAY), revokedAt: dateIn(-2 * DAY) }),
        // Never refreshable, its access token long gone.
        grant({ refreshable: false, expiresAt: null, lastUsedAt: dateIn(-2 * DAY) }),
      ];
      const kept = [
        // Live: refreshable for a month, though idle for three days.
        grant({ lastUsedAt: dateIn(-3 * DAY) }),
        // Revoked an hour ago: a reuse of its family is still recognised.
        grant({ lastUsedAt: dateIn(-3 * DAY), revokedAt: dateIn(-HOUR) }),
        // Its refresh lifetime just ended, but an access token from its last use may still live.
        grant({ lastUsedAt: dateIn(-HOUR), expiresAt: dateIn(-1000) }),
        // Never refreshable, used an hour ago.
        grant({ refreshable: false, expiresAt: null, lastUsedAt: dateIn(-HOUR) }),
      ];
      for (const each of [...ended, ...kept]) await adapter.createOAuthGrant(each);

      const expiredKey = newSigningKey(90 * DAY, -1000);
      const retiredKey = newSigningKey(40 * DAY, 20 * DAY);
      const currentKey = newSigningKey(DAY, 60 * DAY);
      for (const key of [expiredKey, retiredKey, currentKey]) await adapter.createOAuthSigningKey(key);

      expect(await pruneExpiredRows(db, { batchSize: 2 })).toEqual({
        verificationTokens: 0,
        sessions: 0,
        sessionRecords: 0,
        rateLimitWindows: 0,
        oauthAuthorizationCodes: 2,
        oauthDeviceCodes: 1,
        oauthGrants: 3,
        oauthSigningKeys: 1,
        apiKeys: 0,
        userBans: 0,
      });
      for (const code of expiredCodes) expect(await adapter.getOAuthAuthorizationCode(code.codeHash)).toBeNull();
      expect(await adapter.getOAuthAuthorizationCode(liveCode.codeHash)).toEqual(liveCode);
      expect(await adapter.getOAuthDeviceCode(expiredDevice.deviceCodeHash)).toBeNull();
      expect(await adapter.getOAuthDeviceCode(liveDevice.deviceCodeHash)).toEqual(liveDevice);
      const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(await adapter.listOAuthGrantsByUser(ada))).toEqual(byId(kept));
      expect(await adapter.listOAuthSigningKeys()).toEqual([currentKey, retiredKey]);
      expect((await db.query(`SELECT 1 FROM "${db.branch}"."authlib_oauth_signing_keys"`)).rows).toHaveLength(2);
      expect(await adapter.getOAuthClient(clientId)).toEqual(client);

      expect(await pruneExpiredRows(db)).toMatchObject({
        oauthAuthorizationCodes: 0,
        oauthDeviceCodes: 0,
        oauthGrants: 0,
        oauthSigningKeys: 0,
        userBans: 0,
      });
    });
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
const available = await postgresAnswers(databaseURL, "the PostgreSQL authorization server tests");
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
