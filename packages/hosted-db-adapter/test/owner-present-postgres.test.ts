/**
 * The owner-present rule against a stolen session (packages/core/test/helpers/owner-present-suite.ts) with
 * the hosted-db adapter on a real PostgreSQL server, each database a branch of its own, dropped after the
 * file. Skipped, saying why, when no server answers.
 */
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { ownerPresentSuite } from "../../core/test/helpers/owner-present-suite.js";
import { startSmtpServer } from "../../core/test/helpers/smtp.js";
import type { Smtp } from "../../core/test/password/helpers.js";
import { HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { dropBranch, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "the owner-present attacks on PostgreSQL");

describe.skipIf(!available)(`the owner-present rule on PostgreSQL at ${new URL(databaseURL).host}`, () => {
  let pool: pg.Pool;
  let smtp: Smtp;
  const clients: HostedDbClient[] = [];

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
    smtp = await startSmtpServer();
  });

  afterAll(async () => {
    for (const client of clients.splice(0)) {
      await dropBranch(client, client.branch);
      await client.close();
    }
    await smtp?.close();
    await pool?.end();
  });

  ownerPresentSuite(
    "PostgreSQL",
    () => smtp,
    async () => {
      const client = new HostedDbClient({ pool, branch: randomBranch("owner") });
      clients.push(client);
      await client.migrate();
      return { adapter: HostedDbAdapter(client) };
    },
  );
});
