/**
 * `hostedDbSessionStore` and the adapter's session record methods: core's session registry contract, and
 * what is specific to the hosted database (database sessions' rows are records, one statement per call,
 * the user boundary in SQL, deleting a user's records with the user, migration 4 over existing rows), on
 * an in-memory PGlite and on a real PostgreSQL server. Every group works in its own random branch, dropped
 * at the end. The PostgreSQL part is skipped, saying why, when no server answers.
 */
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionRecord, sessionRegistryContract } from "../../core/test/helpers/session-registry-conformance.js";
import {
  type BaseClientOptions,
  HostedDbAdapter,
  HostedDbClient,
  type HostedDbQueryEvent,
  hostedDbSessionStore,
  migrations,
  SESSION_RECORDS_TABLE,
} from "../src/index.js";
import { quoteIdentifier } from "../src/sql.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const HOUR = 60 * 60 * 1000;

/** A date `offset` ms from now with a non-zero millisecond part, to prove millisecond round trips. */
function dateIn(offset: number): Date {
  return new Date(Math.floor((Date.now() + offset) / 1000) * 1000 + 321);
}

/** Everything, on the driver `connection` gives. */
function runSessionStoreTests(name: string, connection: () => BaseClientOptions): void {
  describe(name, () => {
    const clients: HostedDbClient[] = [];

    function newClient(extra: BaseClientOptions = {}): HostedDbClient {
      const client = new HostedDbClient({ ...connection(), branch: randomBranch("sessions"), ...extra });
      clients.push(client);
      return client;
    }

    async function migratedClient(extra: BaseClientOptions = {}): Promise<HostedDbClient> {
      const client = newClient(extra);
      await client.migrate();
      return client;
    }

    afterAll(async () => {
      const [first] = clients;
      if (first) for (const client of clients) await dropBranch(first, client.branch);
      for (const client of clients) await client.close();
    });

    describe("hostedDbSessionStore keeps the registry contract", () => {
      let client: HostedDbClient;
      beforeAll(async () => {
        client = await migratedClient();
      });
      sessionRegistryContract(() => hostedDbSessionStore(client));
    });

    describe("the adapter's session record methods keep the registry contract", () => {
      let client: HostedDbClient;
      beforeAll(async () => {
        client = await migratedClient();
      });
      sessionRegistryContract(() => {
        const adapter = HostedDbAdapter(client);
        return {
          create: async (record) => adapter.createSessionRecord(record),
          get: async (userId, id) => adapter.getSessionRecord(userId, id),
          listByUser: async (userId) => adapter.listSessionRecords(userId),
          touch: async (userId, id, lastSeenAt, expires) => adapter.touchSessionRecord(userId, id, lastSeenAt, expires),
          delete: async (userId, ids, except) => adapter.deleteSessionRecords(userId, ids, except),
        };
      });
    });

    it("runs one statement per call", async () => {
      const events: HostedDbQueryEvent[] = [];
      const client = await migratedClient({ onQuery: (event) => events.push(event) });
      const store = hostedDbSessionStore(client);
      const record = sessionRecord("u-one-statement");
      events.length = 0;
      await store.create(record);
      await store.get(record.userId, record.id);
      await store.listByUser(record.userId);
      await store.touch(record.userId, record.id, new Date(), dateIn(HOUR));
      await store.delete(record.userId, [record.id]);
      await store.delete(record.userId);
      expect(events.map((event) => event.sql.trim().split(/\s/)[0])).toEqual(["INSERT", "SELECT", "SELECT", "WITH", "WITH", "WITH"]);
    });

    it("a database session is a record: created with its metadata, listed without its token, touched, revoked by its row id", async () => {
      const client = await migratedClient();
      const adapter = HostedDbAdapter(client);
      const store = hostedDbSessionStore(client);
      const user = await adapter.createUser({ id: randomUUID(), email: "ada@example.com", emailVerified: null });
      const metadata = {
        createdAt: dateIn(-2000),
        lastSeenAt: dateIn(-1000),
        userAgent: "Chrome on macOS",
        clientAddress: "203.0.113.0/24",
        provider: "credentials",
      };
      const sessionToken = randomUUID();
      const expires = dateIn(HOUR);
      const created = await adapter.createSession({ sessionToken, userId: user.id, expires, ...metadata });
      expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), sessionToken, userId: user.id, expires });
      expect(await adapter.getSessionAndUser(sessionToken)).toEqual({ session: created, user });
      const id = created.id as string;

      const jwt = sessionRecord(user.id);
      await store.create(jwt);
      const listed = await store.listByUser(user.id);
      expect(listed).toHaveLength(2);
      expect(listed).toContainEqual(jwt);
      expect(listed).toContainEqual({ id, userId: user.id, expires, ...metadata });
      expect(JSON.stringify(listed)).not.toContain(sessionToken);
      // get answers JWT records only: a database session is checked by its token.
      expect(await store.get(user.id, id)).toBeNull();

      const seen = dateIn(0);
      const later = dateIn(2 * HOUR);
      await store.touch(user.id, id, seen, later);
      expect(await store.listByUser(user.id)).toContainEqual({ id, userId: user.id, ...metadata, lastSeenAt: seen, expires: later });
      // Touched under another user: nothing changes.
      await store.touch("someone-else", id, dateIn(-HOUR), dateIn(HOUR));
      expect(await store.listByUser(user.id)).toContainEqual({ id, userId: user.id, ...metadata, lastSeenAt: seen, expires: later });

      expect(await store.delete("someone-else", [id, jwt.id])).toEqual([]);
      expect(await store.delete(user.id, [id])).toEqual([{ id, userId: user.id, ...metadata, lastSeenAt: seen, expires: later }]);
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull();
      expect(await client.db.authlib_users_sessions.filter({ user: { id: user.id } })).toEqual([]);
      expect(await store.listByUser(user.id)).toEqual([jwt]);
    });

    it("delete spans both tables, keeps `except`, compares ids as text and answers only live sessions", async () => {
      const client = await migratedClient();
      const adapter = HostedDbAdapter(client);
      const store = hostedDbSessionStore(client);
      const user = await adapter.createUser({ id: randomUUID(), email: "spans@example.com", emailVerified: null });
      const rows = [];
      for (let i = 0; i < 2; i++) {
        rows.push(await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: dateIn(HOUR) }));
      }
      const expired = await adapter.createSession({ sessionToken: randomUUID(), userId: user.id, expires: dateIn(-HOUR) });
      const jwt = [sessionRecord(user.id), sessionRecord(user.id)];
      for (const record of jwt) await store.create(record);

      for (const malformed of ["'; DELETE FROM authlib_sessions; --", "", "%", "*"]) {
        expect(await store.delete(user.id, [malformed])).toEqual([]);
      }
      expect(await store.delete(user.id, [])).toEqual([]);
      expect(await store.listByUser(user.id)).toHaveLength(4);

      // Everything but one database session: the expired row goes too, but is not answered.
      const ended = await store.delete(user.id, undefined, rows[0]?.id as string);
      expect(ended.map((record) => record.id).sort()).toEqual([rows[1]?.id, ...jwt.map((record) => record.id)].sort());
      expect(await client.db.authlib_sessions.read(expired.id as string)).toBeNull();
      expect((await store.listByUser(user.id)).map((record) => record.id)).toEqual([rows[0]?.id]);
    });

    it("a session row without metadata (another tool, or before migration 4) lists with lastSeenAt = createdAt", async () => {
      const client = await migratedClient();
      const user = await client.db.authlib_users.create({ email: "bare@example.com" });
      const row = await client.db.authlib_sessions.create({ sessionToken: randomUUID(), expires: dateIn(HOUR), user: { id: user.id } });
      expect(await hostedDbSessionStore(client).listByUser(user.id)).toEqual([
        {
          id: row.id,
          userId: user.id,
          createdAt: row.meta.createdAt,
          lastSeenAt: row.meta.createdAt,
          expires: row.expires,
          userAgent: null,
          clientAddress: null,
          provider: null,
        },
      ]);
    });

    it("deleteUser and deleteSessionsByUserId delete the user's JWT session records too, and no one else's", async () => {
      const client = await migratedClient();
      const adapter = HostedDbAdapter(client);
      const store = hostedDbSessionStore(client);
      const ada = await adapter.createUser({ id: randomUUID(), email: "ada@example.com", emailVerified: null });
      const bob = await adapter.createUser({ id: randomUUID(), email: "bob@example.com", emailVerified: null });
      await adapter.createSession({ sessionToken: randomUUID(), userId: ada.id, expires: dateIn(HOUR) });
      await store.create(sessionRecord(ada.id));
      await store.create(sessionRecord(ada.id, -10));
      const bobs = sessionRecord(bob.id);
      await store.create(bobs);
      // Counted whether live or not: they are rows deleted.
      expect(await adapter.deleteSessionsByUserId(ada.id)).toBe(3);
      expect(await store.listByUser(ada.id)).toEqual([]);

      // A credentials user of JWT sessions is not in authlib_users: deleteUser still ends their records.
      const outsider = sessionRecord("credentials-user-7");
      await store.create(outsider);
      await store.create(sessionRecord(ada.id));
      expect(await adapter.deleteUser("credentials-user-7")).toBeNull();
      expect(await store.get(outsider.userId, outsider.id)).toBeNull();
      expect(await adapter.deleteUser(ada.id)).toEqual(ada);
      const { rows } = await client.query<{ user_id: string }>(
        `SELECT "user_id" FROM ${quoteIdentifier(client.branch)}.${quoteIdentifier(SESSION_RECORDS_TABLE)}`,
      );
      expect(rows).toEqual([{ user_id: bob.id }]);
      expect(await store.listByUser(bob.id)).toEqual([bobs]);
    });

    it("migration 4 over a branch at version 3 keeps its session rows readable and lists them", async () => {
      const client = newClient();
      const s = quoteIdentifier(client.branch);
      // Version 3, as a deploy of the previous release left it.
      await client.transaction(async (tx) => {
        await tx.query(`CREATE SCHEMA ${s}`);
        await tx.query(
          `CREATE TABLE ${s}."authlib_migrations" ("version" integer PRIMARY KEY, "name" text NOT NULL, "applied_at" timestamptz NOT NULL DEFAULT now())`,
        );
        for (const migration of migrations.filter((m) => m.version <= 3)) {
          for (const statement of migration.statements(s)) await tx.query(statement);
          await tx.query(`INSERT INTO ${s}."authlib_migrations" ("version", "name") VALUES ($1, $2)`, [migration.version, migration.name]);
        }
      });
      const { rows: users } = await client.query<{ id: string }>(
        `INSERT INTO ${s}."authlib_users" ("email") VALUES ('old@example.com') RETURNING "id"`,
      );
      const userId = users[0]?.id as string;
      const { rows: sessions } = await client.query<{ id: string; created_at: Date }>(
        `INSERT INTO ${s}."authlib_sessions" ("user_id", "sessionToken", "expires", "created_at")
         VALUES ($1, 'old-token', now() + interval '1 day', now() - interval '3 days') RETURNING "id", "created_at"`,
        [userId],
      );
      await client.query(`INSERT INTO ${s}."authlib_users_sessions" ("user_id", "session_id") VALUES ($1, $2)`, [userId, sessions[0]?.id]);

      expect(await client.migrate()).toMatchObject({ applied: [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], version: 14 });

      const adapter = HostedDbAdapter(client);
      const found = await adapter.getSessionAndUser("old-token");
      expect(found).toMatchObject({ session: { id: sessions[0]?.id, sessionToken: "old-token", userId }, user: { id: userId } });
      const [listed] = await adapter.listSessionRecords(userId);
      expect(listed).toMatchObject({ id: sessions[0]?.id, userAgent: null, clientAddress: null, provider: null });
      expect(listed?.createdAt).toEqual(new Date(sessions[0]?.created_at as Date));
      expect(listed?.lastSeenAt).toEqual(listed?.createdAt);
      // The new table and its indexes are there.
      const { rows: indexes } = await client.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY indexname",
        [client.branch, SESSION_RECORDS_TABLE],
      );
      expect(indexes.map((row) => row.indexname)).toEqual([
        "authlib_session_records_expires_idx",
        "authlib_session_records_pkey",
        "authlib_session_records_user_id_idx",
      ]);
    });
  });
}

describe("on PGlite (in memory)", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
  });
  afterAll(async () => {
    await pglite.close();
  });
  runSessionStoreTests("session records", () => ({ pglite }));
});

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the PostgreSQL session record tests");

describe.skipIf(!available)(`on PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
  });
  runSessionStoreTests("session records", () => ({ pool }));
});
