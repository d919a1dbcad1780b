/**
 * The adapter conformance suite and the hosted-database tests on ONE in-memory PGlite instance, shared
 * by every test group (a cold PGlite start costs seconds and hundreds of MB); each group uses its own
 * branch.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { runAdapterConformanceSuite } from "./adapter-suite.js";
import { runExpirySuite } from "./expiry-suite.js";
import { hostedDbView, randomBranch } from "./helpers.js";
import { runHostedDbSuite } from "./hosted-suite.js";

let pglite: PGlite;

beforeAll(async () => {
  pglite = await PGlite.create();
});

afterAll(async () => {
  await pglite.close();
});

let client: HostedDbClient;

runAdapterConformanceSuite({
  name: "HostedDbAdapter on PGlite (in memory)",
  setup: async () => {
    client = new HostedDbClient({ pglite, branch: randomBranch("conformance") });
    await client.migrate();
  },
  adapter: () => HostedDbAdapter(client),
  db: hostedDbView(() => client),
  teardown: () => client.close(),
});

runHostedDbSuite({ name: "HostedDbClient on PGlite (in memory)", connection: () => ({ pglite }) });
runExpirySuite({ name: "Expired rows on PGlite (in memory)", connection: () => ({ pglite }) });

describe("HostedDbClient over a PGlite instance", () => {
  it("reports an in-memory instance as memory:// and leaves it open on close()", async () => {
    const client = new HostedDbClient({ pglite, branch: "anything" });
    expect(await client.getConfig()).toEqual({ branch: "anything", databaseURL: "memory://" });
    await client.query("SELECT 1");
    await client.close();
    expect(pglite.closed).toBe(false);
  });

  it("refuses both a PGlite instance and a pool", async () => {
    const pool = new pg.Pool();
    try {
      expect(() => new HostedDbClient({ pglite, pool })).toThrow(expect.objectContaining({ code: "InvalidOptions" }));
    } finally {
      await pool.end();
    }
  });
});
