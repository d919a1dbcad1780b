/**
 * Auth.js's own adapter test suite (`runBasicTests`, vendored unchanged in `vendor/authjs-adapter-suite`)
 * against `HostedDbAdapter`, on PGlite and on a real PostgreSQL server: an app moving from Auth.js keeps
 * the adapter contract its code was written against. The suite reads the rows back through the same view
 * as authlib's own conformance suite (`hostedDbView`), WebAuthn methods included.
 */

import type { Adapter as AuthjsAdapter } from "@auth/core/adapters";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe } from "vitest";
import { HostedDbAdapter, HostedDbClient } from "../src/index.js";
import { dropBranch, hostedDbView, postgresAnswers, randomBranch, testDatabaseURL } from "./helpers.js";
import { runBasicTests } from "./vendor/authjs-adapter-suite/adapter.js";

/** Runs the suite on a migrated branch of `client`, closing what `close` names after it. */
async function runAuthjsSuite(client: HostedDbClient, close: () => Promise<unknown>) {
  await client.migrate();
  await runBasicTests({
    // authlib's adapter types allow a user without an address (`email: string | null`), Auth.js's do not:
    // the suite's users all have one.
    adapter: HostedDbAdapter(client) as AuthjsAdapter,
    db: { ...hostedDbView(() => client), disconnect: close },
    testWebAuthnMethods: true,
  });
}

describe("Auth.js's adapter suite, HostedDbAdapter on PGlite (in memory)", async () => {
  const pglite = await PGlite.create();
  const client = new HostedDbClient({ pglite, branch: randomBranch("authjs-suite") });
  await runAuthjsSuite(client, async () => {
    await client.close();
    await pglite.close();
  });
});

const databaseURL = testDatabaseURL();
const available = await postgresAnswers(databaseURL, "Auth.js's adapter suite on PostgreSQL");

describe.skipIf(!available)(`Auth.js's adapter suite, HostedDbAdapter on PostgreSQL at ${new URL(databaseURL).host}`, async () => {
  const pool = new pg.Pool({ connectionString: databaseURL, max: 4 });
  const client = new HostedDbClient({ pool, branch: randomBranch("authjs-suite") });
  await runAuthjsSuite(client, async () => {
    await dropBranch(client, client.branch);
    await client.close();
    await pool.end();
  });
});
