/**
 * The adapter conformance suite and the hosted-database tests on ONE in-memory PGlite instance, shared
 * by every test group (a cold PGlite start costs seconds and hundreds of MB); each group uses its own
 * branch.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { runAdapterConformanceSuite } from "./adapter-suite.js";
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

runHostedDbSuite({ name: "HostedDbClient on PGlite (in memory)", connection: () => ({ pglite }), parallel: false });
