/**
 * docs/callbacks-and-events.md: roles in the JWT and the session, and an audit log in the database.
 * (Ending a user's sessions early is session control: docs/sessions.md, examples/sessions.ts.)
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
}

async function roleOf(userId: string | undefined): Promise<string> {
  if (!userId) return "user";
  const { rows } = await client.query<{ role: string }>("SELECT role FROM app_roles WHERE user_id = $1", [userId]);
  return rows[0]?.role ?? "user";
}

async function audit(event: string, userId: string | undefined, detail = ""): Promise<void> {
  await client.query("INSERT INTO app_audit (event, user_id, detail) VALUES ($1, $2, $3)", [event, userId ?? null, detail]);
}

export const config: AuthConfig = {
  providers: [Credentials({ authorize: async () => null })],
  callbacks: {
    async jwt({ token, user, trigger }) {
      if (trigger === "signIn" || trigger === "signUp") {
        // At sign-in: remember who and the role (read once, not on every request).
        token.sub = user?.id ?? token.sub;
        token.role = await roleOf(user?.id);
      }
      return token;
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
