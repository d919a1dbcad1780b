/**
 * A real Postgres for core tests: one in-memory PGlite per test file (cold start is ~3 s and ~700 MB),
 * and a fresh branch (schema) per call, migrated, with the hosted-db adapter on it.
 */

import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { PGlite } from "@electric-sql/pglite";

let shared: PGlite | undefined;

/** The PGlite instance of this test file. */
export function sharedPglite(): PGlite {
  shared ??= new PGlite();
  return shared;
}

/** A migrated branch of the shared PGlite with its adapter; `queries` counts SQL statements. */
export async function freshDatabase() {
  const counter = { queries: 0 };
  const branch = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const client = new HostedDbClient({ pglite: sharedPglite(), branch, onQuery: () => counter.queries++ });
  await client.migrate();
  return { client, adapter: HostedDbAdapter(client), counter };
}

/** Closes the shared PGlite (call in afterAll). */
export async function closeSharedPglite(): Promise<void> {
  await shared?.close();
  shared = undefined;
}
