/**
 * Auth.js's official adapters, each on the tables its own documentation sets up, for the conformance
 * suite (`authjs-adapters.test.ts`) and the bench (`bench/authjs-adapters.mjs`): `@auth/pg-adapter` and `@auth/kysely-adapter`
 * on PostgreSQL, `@auth/drizzle-adapter` on PGlite and on PostgreSQL, `@auth/unstorage-adapter` on
 * unstorage's memory driver.
 *
 * On PostgreSQL every opened adapter gets a schema of its own (random name) on the test server, reached
 * through the connection's `search_path`, and `close()` drops it. The adapters are used unchanged: each
 * gets the client its documentation gives it (a `pg` pool, a `Kysely` instance, a Drizzle database, an
 * unstorage `Storage`).
 */
import { randomUUID } from "node:crypto";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { type Database, KyselyAdapter, KyselyAuth } from "@auth/kysely-adapter";
import PostgresAdapter from "@auth/pg-adapter";
import { UnstorageAdapter } from "@auth/unstorage-adapter";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { PostgresDialect, sql } from "kysely";
import pg from "pg";
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import type { Adapter } from "../../src/types/adapters.js";

/** Where an adapter keeps its rows. */
export type AdapterStore = "PostgreSQL" | "PGlite" | "memory";

/** An opened adapter: the object the app passes as `adapter`, and how to drop what was made for it. */
export interface OpenedAdapter {
  adapter: Adapter;
  close(): Promise<void>;
}

/** One adapter of the suite. */
export interface AuthjsAdapterKind {
  /** The package, as the docs table names it. */
  name: string;
  store: AdapterStore;
  /** Opens the adapter on fresh, empty tables. */
  open(): Promise<OpenedAdapter>;
}

/** What the adapters need from the test file: its PostgreSQL server and its one PGlite. */
export interface AdapterServers {
  postgresURL: string;
  pglite: () => PGlite;
}

/**
 * The schema of `@auth/pg-adapter`'s documentation (authjs.dev, "PostgreSQL Adapter", Schema): serial
 * integer ids, the table names `users`, `accounts`, `sessions`, `verification_token`.
 */
const pgAdapterSchema = `
CREATE TABLE verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE accounts (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,
  PRIMARY KEY (id)
);
CREATE TABLE sessions (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,
  PRIMARY KEY (id)
);
CREATE TABLE users (
  id SERIAL,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT,
  PRIMARY KEY (id)
);`;

/**
 * The tables of `@auth/drizzle-adapter`'s PostgreSQL schema (authjs.dev, "Drizzle ORM Adapter",
 * PostgreSQL), as the SQL that `drizzle-kit push` makes of it: `user`, `account`, `session`,
 * `verificationToken`, `authenticator`.
 */
const drizzleSchema = `
CREATE TABLE "user" (
  id TEXT PRIMARY KEY,
  name TEXT,
  email TEXT UNIQUE,
  "emailVerified" TIMESTAMP,
  image TEXT
);
CREATE TABLE account (
  "userId" TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  provider TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at INTEGER,
  token_type TEXT,
  scope TEXT,
  id_token TEXT,
  session_state TEXT,
  PRIMARY KEY (provider, "providerAccountId")
);
CREATE TABLE session (
  "sessionToken" TEXT PRIMARY KEY,
  "userId" TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
  expires TIMESTAMP NOT NULL
);
CREATE TABLE "verificationToken" (
  identifier TEXT NOT NULL,
  token TEXT NOT NULL,
  expires TIMESTAMP NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE authenticator (
  "credentialID" TEXT NOT NULL UNIQUE,
  "userId" TEXT NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  counter INTEGER NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" BOOLEAN NOT NULL,
  transports TEXT,
  PRIMARY KEY ("userId", "credentialID")
);`;

/** A fresh schema on the PostgreSQL server, and a pool whose connections use it (`search_path`). */
async function postgresSchema(postgresURL: string, ddl: (pool: pg.Pool) => Promise<void>) {
  const schema = `authjs_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: postgresURL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const pool = new pg.Pool({ connectionString: postgresURL, options: `-c search_path=${schema}`, max: 4 });
  try {
    await ddl(pool);
  } catch (error) {
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
    await pool.end();
    throw error;
  }
  return {
    pool,
    async drop(): Promise<void> {
      await pool.end();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

/**
 * The tables of `@auth/kysely-adapter`'s documentation (authjs.dev, "Kysely Adapter", Schema, PostgreSQL),
 * made with Kysely's schema builder as the docs do: `User`, `Account`, `Session`, `VerificationToken`.
 */
async function kyselySchema(db: KyselyAuth<Database>): Promise<void> {
  await db.schema
    .createTable("User")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text")
    .addColumn("email", "text", (col) => col.unique().notNull())
    .addColumn("emailVerified", "timestamptz")
    .addColumn("image", "text")
    .execute();
  await db.schema
    .createTable("Account")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("userId", "uuid", (col) => col.references("User.id").onDelete("cascade").notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("providerAccountId", "text", (col) => col.notNull())
    .addColumn("refresh_token", "text")
    .addColumn("access_token", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("token_type", "text")
    .addColumn("scope", "text")
    .addColumn("id_token", "text")
    .addColumn("session_state", "text")
    .execute();
  await db.schema
    .createTable("Session")
    .addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("userId", "uuid", (col) => col.references("User.id").onDelete("cascade").notNull())
    .addColumn("sessionToken", "text", (col) => col.notNull().unique())
    .addColumn("expires", "timestamptz", (col) => col.notNull())
    .execute();
  await db.schema
    .createTable("VerificationToken")
    .addColumn("identifier", "text", (col) => col.notNull())
    .addColumn("token", "text", (col) => col.notNull().unique())
    .addColumn("expires", "timestamptz", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("Account_userId_index").on("Account").column("userId").execute();
  await db.schema.createIndex("Session_userId_index").on("Session").column("userId").execute();
}

/** The five adapters of the suite, on `servers`. */
export function authjsAdapters(servers: AdapterServers): AuthjsAdapterKind[] {
  return [
    {
      name: "@auth/pg-adapter",
      store: "PostgreSQL",
      async open() {
        const db = await postgresSchema(servers.postgresURL, async (pool) => void (await pool.query(pgAdapterSchema)));
        return { adapter: PostgresAdapter(db.pool), close: db.drop };
      },
    },
    {
      name: "@auth/drizzle-adapter",
      store: "PGlite",
      async open() {
        // The file's one PGlite: a schema of its own, the connection's search_path on it.
        const pglite = servers.pglite();
        const schema = `drizzle_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
        await pglite.exec(`CREATE SCHEMA "${schema}"; SET search_path TO "${schema}"; ${drizzleSchema}`);
        return {
          adapter: DrizzleAdapter(drizzlePglite(pglite)),
          close: async () => void (await pglite.exec(`DROP SCHEMA "${schema}" CASCADE; SET search_path TO public`)),
        };
      },
    },
    {
      name: "@auth/drizzle-adapter",
      store: "PostgreSQL",
      async open() {
        const db = await postgresSchema(servers.postgresURL, async (pool) => void (await pool.query(drizzleSchema)));
        return { adapter: DrizzleAdapter(drizzleNodePostgres(db.pool)), close: db.drop };
      },
    },
    {
      name: "@auth/kysely-adapter",
      store: "PostgreSQL",
      async open() {
        const kysely = (pool: pg.Pool) => new KyselyAuth<Database>({ dialect: new PostgresDialect({ pool }) });
        const db = await postgresSchema(servers.postgresURL, (pool) => kyselySchema(kysely(pool)));
        // Not Kysely's destroy(): it would end the pool, which drop() ends before dropping the schema.
        return { adapter: KyselyAdapter(kysely(db.pool)), close: db.drop };
      },
    },
    {
      name: "@auth/unstorage-adapter",
      store: "memory",
      async open() {
        const storage = createStorage({ driver: memoryDriver() });
        return { adapter: UnstorageAdapter(storage), close: () => storage.dispose() };
      },
    },
  ];
}
