/**
 * Test helpers shared by the PGlite and PostgreSQL test files.
 */
import { randomUUID } from "node:crypto";
import type { AdapterAccount, AdapterAccountType } from "@authlib/core/adapters";
import pg from "pg";
import type { HostedDbClient } from "../src/index.js";
import { quoteIdentifier } from "../src/sql.js";
import type { AdapterConformanceDb } from "./adapter-suite.js";

/** The PostgreSQL server of the tests: `AUTHLIB_TEST_DATABASE_URL`, else the local one (trust auth, database `test`). */
export function testDatabaseURL(): string {
  return process.env.AUTHLIB_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
}

/** Whether a PostgreSQL server answers at `connectionString`; when not, warns that `what` is skipped and why. */
export async function postgresAnswers(connectionString: string, what: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    await probe.query("SELECT 1");
    return true;
  } catch (error) {
    console.warn(
      `Skipping ${what}: no server answered at ${connectionString.replace(/:[^:@/]*@/, ":***@")} ` +
        `(${error instanceof Error ? error.message : String(error)}). Set AUTHLIB_TEST_DATABASE_URL to run them.`,
    );
    return false;
  } finally {
    await probe.end().catch(() => {});
  }
}

/** A fresh branch name, so every test group gets its own schema. */
export function randomBranch(prefix = "test"): string {
  return `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

function isAccountType(type: string | null | undefined): type is AdapterAccountType {
  return type === "oauth" || type === "oidc" || type === "email" || type === "webauthn" || type === "credentials";
}

/** Drops a branch and everything in it. */
export async function dropBranch(client: HostedDbClient, branch: string): Promise<void> {
  await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(branch)} CASCADE`);
}

/**
 * The conformance suite's view of the rows, read through the typed tables (not through the adapter).
 * `client` is a getter because the client is created in the suite's setup.
 */
export function hostedDbView(client: () => HostedDbClient): AdapterConformanceDb {
  return {
    async user(id) {
      const record = await client().db.authlib_users.read(id);
      if (!record) return null;
      return {
        id: record.id,
        email: record.email ?? null,
        emailVerified: record.emailVerified ?? null,
        name: record.name ?? null,
        image: record.image ?? null,
      };
    },
    async account({ provider, providerAccountId }) {
      const record = await client().db.authlib_accounts.findFirst({ provider, providerAccountId });
      if (!record) return null;
      const { type } = record;
      if (!isAccountType(type)) throw new Error(`authlib_accounts.type is ${JSON.stringify(type)}`);
      const view: AdapterAccount = {
        userId: record.user?.id ?? "",
        type,
        provider: record.provider ?? "",
        providerAccountId: record.providerAccountId ?? "",
      };
      // Empty token fields are absent from the view, as from the adapter's accounts.
      const tokens = {
        access_token: record.access_token,
        expires_at: record.expires_at,
        id_token: record.id_token,
        refresh_token: record.refresh_token,
        scope: record.scope,
        session_state: record.session_state,
        token_type: record.token_type,
      };
      return { ...view, ...Object.fromEntries(Object.entries(tokens).filter(([, value]) => value !== null)) };
    },
    async session(sessionToken) {
      const record = await client().db.authlib_sessions.findFirst({ sessionToken });
      if (!record) return null;
      // The row as it is, its id included (the public id the adapter answers with): Auth.js's suite compares
      // getSessionAndUser with the row read here.
      return {
        id: record.id,
        sessionToken: record.sessionToken ?? "",
        userId: record.user?.id ?? "",
        expires: record.expires ?? new Date(Number.NaN),
      };
    },
    async verificationToken({ identifier, token }) {
      const record = await client().db.authlib_verificationTokens.findFirst({ identifier, token });
      if (!record) return null;
      return { identifier: record.identifier ?? "", token: record.token ?? "", expires: record.expires ?? new Date(Number.NaN) };
    },
    async authenticator(credentialID) {
      const record = await client().db.authlib_authenticators.findFirst({ credentialID });
      if (!record) return null;
      return {
        credentialID: record.credentialID ?? "",
        userId: record.user?.id ?? "",
        providerAccountId: record.providerAccountId ?? "",
        counter: record.counter ?? Number.NaN,
        credentialBackedUp: record.credentialBackedUp ?? false,
        credentialPublicKey: record.credentialPublicKey ?? "",
        credentialDeviceType: record.credentialDeviceType ?? "",
        transports: record.transports ?? null,
        name: record.name ?? null,
        createdAt: record.meta.createdAt,
        lastUsedAt: record.lastUsedAt ?? null,
      };
    },
  };
}
