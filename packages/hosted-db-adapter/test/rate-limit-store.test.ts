/**
 * `hostedDbRateLimitStore`: core's rate-limit store conformance suite and what is specific to the hosted
 * database (one statement per call, the sweep of ended windows, branches, migrations), on an in-memory
 * PGlite, on a PGlite folder (counts survive a restart) and on a real PostgreSQL server through two pools,
 * as two instances of an application would have. Every group works in its own random branch, dropped at
 * the end. The PostgreSQL part is skipped, saying why, when no server answers.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshKey, runRateLimitStoreSuite, waitForWindowEnd } from "../../core/test/helpers/rate-limit-store-suite.js";
import {
  type BaseClientOptions,
  HostedDbClient,
  HostedDbError,
  type HostedDbQueryEvent,
  hostedDbRateLimitStore,
  RATE_LIMIT_TABLE,
} from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

/** The conformance suite on two clients of one branch (`connections` gives each client's driver). */
function runConformance(name: string, connections: () => [BaseClientOptions, BaseClientOptions]): void {
  const branch = randomBranch("rate_limit");
  let clients: HostedDbClient[] = [];
  runRateLimitStoreSuite({
    name,
    setup: async () => {
      clients = connections().map((connection) => new HostedDbClient({ ...connection, branch }));
      await clients[0]?.migrate();
    },
    stores: () => ({ first: hostedDbRateLimitStore(clients[0]!), second: hostedDbRateLimitStore(clients[1]!) }),
    teardown: async () => {
      if (clients[0]) await dropBranch(clients[0], branch);
      for (const client of clients) await client.close();
    },
  });
}

/** What only this store does, on the driver `connection` gives. */
function runSpecific(name: string, connection: () => BaseClientOptions): void {
  describe(name, () => {
    const clients: HostedDbClient[] = [];

    async function migratedClient(extra: BaseClientOptions = {}): Promise<HostedDbClient> {
      const client = new HostedDbClient({ ...connection(), branch: randomBranch("rate_limit"), ...extra });
      clients.push(client);
      await client.migrate();
      return client;
    }

    afterAll(async () => {
      const [first] = clients;
      if (first) for (const client of clients) await dropBranch(first, client.branch);
      for (const client of clients) await client.close();
    });

    it("runs one statement per call, and sweeps at most once per interval, not on every hit", async () => {
      const events: HostedDbQueryEvent[] = [];
      const client = await migratedClient({ onQuery: (event) => events.push(event) });
      events.length = 0;
      const store = hostedDbRateLimitStore(client);
      const key = freshKey();
      for (let i = 0; i < 20; i++) await store.increment(key, 60_000);
      const sweeps = events.filter((event) => event.sql.includes("SKIP LOCKED"));
      const hits = events.filter((event) => !event.sql.includes("SKIP LOCKED"));
      expect(hits).toHaveLength(20);
      expect(hits.every((event) => /^\s*INSERT INTO .* ON CONFLICT/s.test(event.sql))).toBe(true);
      expect(sweeps).toHaveLength(1);

      events.length = 0;
      await store.get(key);
      await store.reset(key);
      expect(events.map((event) => event.sql.trim().split(/\s/)[0])).toEqual(["SELECT", "DELETE"]);
    });

    it("deleteEndedWindows deletes ended windows only, in batches of sweepLimit", async () => {
      const client = await migratedClient();
      const store = hostedDbRateLimitStore(client, { sweepLimit: 2, sweepIntervalMs: 60 * 60_000 });
      const live = freshKey("live");
      await store.increment(live, 60 * 60_000);
      const ended = [freshKey("ended"), freshKey("ended"), freshKey("ended")];
      const windows = [];
      for (const key of ended) windows.push(await store.increment(key, 200));
      for (const [index, key] of ended.entries()) await waitForWindowEnd(store, key, windows[index]!);

      expect(await store.deleteEndedWindows()).toBe(2);
      expect(await store.deleteEndedWindows()).toBe(1);
      expect(await store.deleteEndedWindows()).toBe(0);
      const { rows } = await client.query<{ key: string }>(`SELECT "key" FROM "${client.branch}"."${RATE_LIMIT_TABLE}"`);
      expect(rows).toEqual([{ key: live }]);
      expect((await store.get(live))?.count).toBe(1);
    });

    it("stores short keys as they are and long or NUL-bearing keys as a digest", async () => {
      const client = await migratedClient();
      const store = hostedDbRateLimitStore(client);
      const keys = [freshKey("plain"), `${freshKey()}${"x".repeat(5_000)}`, `${freshKey()}\0`];
      for (const key of keys) await store.increment(key, 60_000);
      const { rows } = await client.query<{ key: string }>(`SELECT "key" FROM "${client.branch}"."${RATE_LIMIT_TABLE}" ORDER BY "key"`);
      const stored = rows.map((row) => row.key);
      expect(stored).toContain(keys[0]);
      expect(stored.filter((key) => /^#sha256:[0-9a-f]{64}$/.test(key))).toHaveLength(2);
    });

    it("keeps each branch's counts apart", async () => {
      const [main, preview] = [hostedDbRateLimitStore(await migratedClient()), hostedDbRateLimitStore(await migratedClient())];
      const key = freshKey();
      await main.increment(key, 60_000);
      await main.increment(key, 60_000);
      expect((await preview.increment(key, 60_000)).count).toBe(1);
      expect((await main.get(key))?.count).toBe(2);
    });

    it("fails with MissingMigration before the branch is migrated", async () => {
      const client = new HostedDbClient({ ...connection(), branch: randomBranch("unmigrated") });
      clients.push(client);
      const failure = hostedDbRateLimitStore(client).increment(freshKey(), 60_000);
      await expect(failure).rejects.toBeInstanceOf(HostedDbError);
      await expect(failure).rejects.toMatchObject({ code: "MissingMigration", message: expect.stringContaining("npx authlib-db migrate") });
    });

    it("refuses a window shorter than 1 ms and unusable options", async () => {
      const store = hostedDbRateLimitStore(await migratedClient());
      for (const windowMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(store.increment(freshKey(), windowMs)).rejects.toBeInstanceOf(RangeError);
      }
      const client = clients[0]!;
      expect(() => hostedDbRateLimitStore(client, { sweepLimit: 0 })).toThrow(RangeError);
      expect(() => hostedDbRateLimitStore(client, { sweepIntervalMs: Number.NaN })).toThrow(RangeError);
    });
  });
}

describe("on PGlite in memory", () => {
  let pglite: PGlite;

  beforeAll(async () => {
    pglite = await PGlite.create();
  });

  afterAll(async () => {
    await pglite.close();
  });

  runConformance("conformance, two clients of one instance", () => [{ pglite }, { pglite }]);
  runSpecific("hostedDbRateLimitStore", () => ({ pglite }));
});

describe("on a PGlite folder", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "authlib-rate-limit-"));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("keeps counting a window after the database is closed and opened again", async () => {
    const databaseURL = `file://${join(folder, "db")}`;
    const before = new HostedDbClient({ databaseURL });
    await before.migrate();
    const key = freshKey();
    await hostedDbRateLimitStore(before).increment(key, 60 * 60_000);
    const window = await hostedDbRateLimitStore(before).increment(key, 60 * 60_000);
    await before.close();

    const after = new HostedDbClient({ databaseURL });
    try {
      expect(await hostedDbRateLimitStore(after).get(key)).toEqual(window);
      expect(await hostedDbRateLimitStore(after).increment(key, 60 * 60_000)).toEqual({ count: 3, resetAt: window.resetAt });
    } finally {
      await after.close();
    }
    // Two cold PGlite starts, the first writing a fresh database to disk.
  }, 120_000);
});

const databaseURL = testDatabaseURL();
const postgresAvailable = await postgresAnswers(databaseURL, "the PostgreSQL rate-limit store tests");

describe.skipIf(!postgresAvailable)(`on PostgreSQL at ${new URL(databaseURL).host}`, () => {
  // Two pools: two application instances sharing one database.
  let pools: [pg.Pool, pg.Pool];

  beforeAll(() => {
    pools = [new pg.Pool({ connectionString: databaseURL, max: 8 }), new pg.Pool({ connectionString: databaseURL, max: 8 })];
  });

  afterAll(async () => {
    for (const pool of pools) await pool.end();
  });

  runConformance("conformance, two pools", () => [{ pool: pools[0] }, { pool: pools[1] }]);
  runSpecific("hostedDbRateLimitStore", () => ({ pool: pools[0] }));
});
