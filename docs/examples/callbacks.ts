/**
 * docs/callbacks-and-events.md: roles in the JWT and the session, an audit log in the database, and
 * revoking a user's JWT sessions before they expire.
 */
import type { AuthConfig, DefaultSession } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";
import { HostedDbClient } from "@authlib/hosted-db-adapter";

// The session and the token carry a role: module augmentation types it everywhere.
declare module "@authlib/core/types" {
  interface Session {
    user?: { id?: string; role?: string } & DefaultSession["user"];
  }
}
declare module "@authlib/core/jwt" {
  interface JWT {
    role?: string;
    /** When this token's sign-in happened (seconds since the epoch): the revocation check compares it. */
    signedInAt?: number;
  }
}

const client = new HostedDbClient({ databaseURL: process.env.DATABASE_URL });

/** The app's own tables, next to authlib's (run once per deploy, after `client.migrate()`). */
export async function createAppTables(): Promise<void> {
  const users = client.db.authlib_users.sqlName;
  await client.query(
    `CREATE TABLE IF NOT EXISTS app_roles (user_id text PRIMARY KEY REFERENCES ${users} (id) ON DELETE CASCADE, role text NOT NULL)`,
  );
  await client.query(
    "CREATE TABLE IF NOT EXISTS app_audit (at timestamptz NOT NULL DEFAULT now(), event text NOT NULL, user_id text, detail text)",
  );
  await client.query("CREATE TABLE IF NOT EXISTS app_revocations (user_id text PRIMARY KEY, revoked_before bigint NOT NULL)");
}

async function roleOf(userId: string | undefined): Promise<string> {
  if (!userId) return "user";
  const { rows } = await client.query<{ role: string }>("SELECT role FROM app_roles WHERE user_id = $1", [userId]);
  return rows[0]?.role ?? "user";
}

async function audit(event: string, userId: string | undefined, detail = ""): Promise<void> {
  await client.query("INSERT INTO app_audit (event, user_id, detail) VALUES ($1, $2, $3)", [event, userId ?? null, detail]);
}

/** Ends every JWT session of a user that started before now (e.g. after a password change). */
export async function revokeSessions(userId: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await client.query(
    "INSERT INTO app_revocations (user_id, revoked_before) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET revoked_before = $2",
    [userId, now],
  );
}

async function revoked(userId: string | undefined, signedInAt: number | undefined): Promise<boolean> {
  if (!userId) return false;
  const { rows } = await client.query<{ revoked_before: string }>("SELECT revoked_before FROM app_revocations WHERE user_id = $1", [
    userId,
  ]);
  const before = rows[0] ? Number(rows[0].revoked_before) : undefined;
  return before !== undefined && (signedInAt ?? 0) <= before;
}

export const config: AuthConfig = {
  providers: [Credentials({ authorize: async () => null })],
  callbacks: {
    async jwt({ token, user, trigger }) {
      if (trigger === "signIn" || trigger === "signUp") {
        // At sign-in: remember who, when, and the role (read once, not on every request).
        token.sub = user?.id ?? token.sub;
        token.role = await roleOf(user?.id);
        token.signedInAt = Math.floor(Date.now() / 1000);
        return token;
      }
      // On every read: a revoked token ends the session (the cookie is cleared).
      return (await revoked(token.sub, token.signedInAt)) ? null : token;
    },
    session({ session, ...rest }) {
      if (!("token" in rest)) return session; // database sessions: see the docs
      const { token } = rest;
      return { ...session, user: { ...session.user, id: token.sub, role: token.role } };
    },
  },
  events: {
    signIn: ({ user, account, isNewUser }) => audit("signIn", user.id, `${account?.provider ?? "?"}${isNewUser ? " (new user)" : ""}`),
    signOut: (message) => audit("signOut", "token" in message ? (message.token?.sub ?? undefined) : message.session?.userId),
    createUser: ({ user }) => audit("createUser", user.id),
    linkAccount: ({ user, account }) => audit("linkAccount", user.id, account.provider),
  },
};
