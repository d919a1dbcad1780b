/**
 * The server under test: `Auth()` over `node:http` (the core tests' `startNodeServer`) with database
 * sessions through `HostedDbAdapter` on a PostgreSQL server, and a Credentials provider whose `authorize`
 * finds the user in the database and checks the password with `verifyPassword`.
 *
 * Every user has the same password, hashed once with `hashPassword` (default scrypt cost) when the app
 * starts. `authorize` verifies with `verifyPassword`, remembering the answer per submitted password: the
 * first sign-in pays one real scrypt verification, the others reuse it. Scrypt costs ~100 ms of CPU by
 * design; 500 of them would make the figures measure scrypt on a shared 2-core machine rather than
 * authlib and PostgreSQL (the benchmarks' Credentials provider does no hashing for the same reason).
 */
import { Auth, type AuthConfig } from "@authlib/core";
import { hashPassword, verifyPassword } from "@authlib/core/password";
import { Credentials } from "@authlib/core/providers";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { type NodeServer, startNodeServer } from "../../packages/core/test/helpers/node-server.js";
import { runBounded } from "./measure.js";

/** The password every seeded user has. */
export const USER_PASSWORD = "correct horse battery staple";

/** The e-mail address of seeded user number `index`. */
export function userEmail(index: number): string {
  return `user-${index}@reliability.test`;
}

/** Options of {@link startAuthApp}. */
export interface AuthAppOptions {
  /** A `postgres://` URL. */
  databaseURL: string;
  /** Passed to `HostedDbClient`; unset means its defaults. */
  connectTimeoutMillis?: number;
  queryTimeoutMillis?: number;
}

/** Row counts of the tables a sign-in writes, with distinct counts that expose duplicates. */
export interface TableCounts {
  users: number;
  distinctUserIds: number;
  distinctUserEmails: number;
  sessions: number;
  distinctSessionTokens: number;
  sessionsUserLinks: number;
}

/** A running app. */
export interface AuthApp {
  server: NodeServer;
  client: HostedDbClient;
  /** The name of every error authlib logged, in order (their messages may hold details; not kept). */
  loggedErrors: string[];
  /** Creates users `from` … `to - 1` (idempotent per index: the email is unique). */
  seedUsers(from: number, to: number): Promise<void>;
  counts(): Promise<TableCounts>;
  close(): Promise<void>;
}

/** Migrates the database, then starts the app on 127.0.0.1 and a free port. */
export async function startAuthApp(options: AuthAppOptions): Promise<AuthApp> {
  const client = new HostedDbClient({
    databaseURL: options.databaseURL,
    branch: "reliability",
    ...(options.connectTimeoutMillis === undefined ? {} : { connectTimeoutMillis: options.connectTimeoutMillis }),
    ...(options.queryTimeoutMillis === undefined ? {} : { queryTimeoutMillis: options.queryTimeoutMillis }),
  });
  await client.migrate();
  const adapter = HostedDbAdapter(client);
  const passwordHash = await hashPassword(USER_PASSWORD);
  const verdicts = new Map<string, Promise<boolean>>();
  function passwordMatches(password: string): Promise<boolean> {
    let verdict = verdicts.get(password);
    if (!verdict) {
      verdict = verifyPassword(password, passwordHash);
      verdicts.set(password, verdict);
    }
    return verdict;
  }
  const loggedErrors: string[] = [];
  const config: AuthConfig = {
    secret: "reliability-test-secret-0123456789abcdef",
    trustHost: true,
    session: { strategy: "database" },
    adapter,
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize({ email, password }) {
          const user = await adapter.getUserByEmail!(String(email));
          return user && (await passwordMatches(String(password))) ? user : null;
        },
      }),
    ],
    logger: { error: (error) => void loggedErrors.push(error.name), warn: () => {} },
  };
  const server = await startNodeServer((request) => Auth(request, config), {
    fallback: () => new Response("home", { headers: { "content-type": "text/plain" } }),
  });
  const { db } = client;
  return {
    server,
    client,
    loggedErrors,
    async seedUsers(from, to) {
      const indexes = Array.from({ length: to - from }, (_, i) => from + i);
      await runBounded(indexes, 8, async (index) => {
        await adapter.createUser!({ id: crypto.randomUUID(), email: userEmail(index), emailVerified: null, name: `User ${index}` });
      });
    },
    async counts() {
      const { rows } = await client.query<Record<keyof TableCounts, string>>(
        `SELECT
           (SELECT count(*) FROM ${db.authlib_users.sqlName}) AS "users",
           (SELECT count(DISTINCT "id") FROM ${db.authlib_users.sqlName}) AS "distinctUserIds",
           (SELECT count(DISTINCT "email") FROM ${db.authlib_users.sqlName}) AS "distinctUserEmails",
           (SELECT count(*) FROM ${db.authlib_sessions.sqlName}) AS "sessions",
           (SELECT count(DISTINCT "sessionToken") FROM ${db.authlib_sessions.sqlName}) AS "distinctSessionTokens",
           (SELECT count(*) FROM ${db.authlib_users_sessions.sqlName}) AS "sessionsUserLinks"`,
      );
      const row = rows[0] as Record<keyof TableCounts, string>;
      return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, Number(value)])) as unknown as TableCounts;
    },
    async close() {
      await server.close();
      await client.close();
    },
  };
}
