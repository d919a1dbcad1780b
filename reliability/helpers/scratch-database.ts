/**
 * A database of its own on the shared PostgreSQL server (127.0.0.1:5432, trust auth), so row counts are
 * exact whatever else runs there; dropped at the end, connections and all.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The shared server; `AUTHLIB_TEST_DATABASE_URL` points elsewhere. */
export const SHARED_SERVER_URL = process.env.AUTHLIB_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** A scratch database: its URL, and how to drop it. */
export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function onServer<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SHARED_SERVER_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates `authlib_reliability_<random>` on the shared server. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `authlib_reliability_${randomBytes(6).toString("hex")}`;
  // The name is ours (letters, digits, underscore): no quoting issue.
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(SHARED_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
