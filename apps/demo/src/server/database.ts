/**
 * The demo's database: the hosted-db adapter on the embedded database (PGlite persisted in a folder,
 * `.data/db` unless `AUTHLIB_DATABASE_URL` says otherwise). It is created and migrated on first start,
 * and the demo user is added to it, so credentials sign-in can start database sessions, with their two
 * organizations (demo-organizations.ts).
 */
import { join, resolve } from "node:path";
import type { Adapter, AdapterUser } from "@authlib/core";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { ensureDemoOrganizations } from "./demo-organizations";
import { DEMO_EMAIL, DEMO_NAME, DEMO_USER_ID } from "./demo-user";

/** The open database of the demo. */
export interface DemoDatabase {
  /** The hosted-db client: typed tables in `client.db`. */
  readonly client: HostedDbClient;
  /** authlib's adapter over the client. */
  readonly adapter: Required<Adapter>;
  /** Where the data is: `file://<folder>`, `memory://` or a `postgres://` URL (password hidden). */
  readonly location: string;
  /** Closes the database (PGlite flushes and releases its folder). */
  close(): Promise<void>;
}

/** How many characters of a session token the profile page shows: enough to tell sessions apart, useless to an attacker. */
export const SESSION_TOKEN_PREFIX_LENGTH = 6;

/** One of a user's active sessions, as the profile page shows it. */
export interface ActiveSession {
  /** The row id (not a secret). */
  id: string;
  /** The first characters of the session token, followed by an ellipsis. */
  tokenPrefix: string;
  /** When the session started (ISO 8601). */
  createdAt: string;
  /** When it ends unless it is used again (ISO 8601). */
  expires: string;
  /** True for the session of the browser asking. */
  current: boolean;
}

/** Env variables the database location is read from. */
export interface DatabaseEnv {
  AUTHLIB_DATABASE_URL?: string;
  DEMO_DATA_DIR?: string;
}

/**
 * The database URL: `AUTHLIB_DATABASE_URL` when set, else the PGlite folder `<DEMO_DATA_DIR or .data>/db`
 * (relative to the working directory, which is apps/demo under `npm start`).
 */
export function demoDatabaseURL(env: DatabaseEnv): string {
  if (env.AUTHLIB_DATABASE_URL) return env.AUTHLIB_DATABASE_URL;
  return `file://${resolve(join(env.DEMO_DATA_DIR || ".data", "db"))}`;
}

/** Opens the database at `databaseURL`, creates or upgrades its tables, and makes sure the demo user and their organizations are in it. */
export async function openDemoDatabase(databaseURL: string): Promise<DemoDatabase> {
  const client = new HostedDbClient({ databaseURL });
  try {
    await client.migrate();
    const adapter = HostedDbAdapter(client);
    const user = await ensureDemoUser(adapter);
    await ensureDemoOrganizations(adapter, user.id);
    const { databaseURL: location } = await client.getConfig();
    return { client, adapter, location, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * The demo user's row, created when missing. authorize() returns the same id and email, and with
 * database sessions authlib signs in only users the adapter knows. The demo user is the demo's admin (the
 * `admin` role: `admin: { roles: ["admin"] }` in auth-config.ts), so /auth/admin shows the users.
 */
export async function ensureDemoUser(adapter: Required<Adapter>): Promise<AdapterUser> {
  const existing = await adapter.getUserByEmail(DEMO_EMAIL);
  if (existing && (existing as { role?: string }).role === DEMO_ROLE) return existing;
  if (existing) return adapter.updateUser({ id: existing.id, role: DEMO_ROLE } as Partial<AdapterUser> & Pick<AdapterUser, "id">);
  return adapter.createUser({ id: DEMO_USER_ID, email: DEMO_EMAIL, name: DEMO_NAME, emailVerified: null, role: DEMO_ROLE } as AdapterUser);
}

/** The demo user's role: the one `admin.roles` names. */
export const DEMO_ROLE = "admin";

/** The user's sessions that have not expired, newest first; `currentToken` marks the asking browser's. */
export async function listActiveSessions(client: HostedDbClient, userId: string, currentToken?: string): Promise<ActiveSession[]> {
  const now = Date.now();
  const rows = await client.db.authlib_sessions.filter({ user: { id: userId } });
  return rows
    .filter((row) => row.sessionToken && row.expires && row.expires.valueOf() > now)
    .reverse()
    .map((row) => {
      const token = row.sessionToken ?? "";
      return {
        id: row.id,
        tokenPrefix: `${token.slice(0, SESSION_TOKEN_PREFIX_LENGTH)}…`,
        createdAt: row.meta.createdAt.toISOString(),
        expires: (row.expires ?? new Date(now)).toISOString(),
        current: currentToken !== undefined && token === currentToken,
      };
    });
}
