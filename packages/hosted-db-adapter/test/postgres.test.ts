/**
 * The adapter conformance suite and the hosted-database tests against a real PostgreSQL server:
 * `AUTHLIB_TEST_DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/test`. Every group works in its
 * own randomly named schema (branch) and drops it at the end. Skipped, saying why, when no server answers.
 */
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { runAdapterConformanceSuite } from "./adapter-suite.js";
import { runExpirySuite } from "./expiry-suite.js";
import { dropBranch, hostedDbView, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";
import { runHostedDbSuite } from "./hosted-suite.js";

const databaseURL = testDatabaseURL();

const available = await postgresAnswers(databaseURL, "the PostgreSQL tests");

describe.skipIf(!available)(`PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 10 });
  });

  afterAll(async () => {
    await pool.end();
  });

  let client: HostedDbClient;

  runAdapterConformanceSuite({
    name: "HostedDbAdapter on PostgreSQL",
    setup: async () => {
      client = new HostedDbClient({ pool, branch: randomBranch("conformance") });
      await client.migrate();
    },
    adapter: () => HostedDbAdapter(client),
    db: hostedDbView(() => client),
    teardown: async () => {
      await dropBranch(client, client.branch);
      await client.close();
    },
  });

  runHostedDbSuite({ name: "HostedDbClient on PostgreSQL", connection: () => ({ pool }) });
  runExpirySuite({ name: "Expired rows on PostgreSQL", connection: () => ({ pool }) });
});
