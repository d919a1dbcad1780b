/**
 * docs/providers-guide.md and docs/database.md: credentials sign-in with a database. The user must exist
 * in `authlib_users` (database sessions point at it); the password hash lives in a table of the app's own.
 */
import type { AuthConfig } from "@authlib/core";
import { hashPassword, verifyPassword } from "@authlib/core/password";
import Credentials from "@authlib/core/providers/credentials";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";

// postgres://… (a server, through `pg`), file://<folder> or memory:// (PGlite); unset: PGlite in ./.authlib-db.
export const client = new HostedDbClient({ databaseURL: process.env.AUTHLIB_DATABASE_URL });

/** authlib's tables, then the app's password table (its rows go when the user is deleted). */
export async function migrate(): Promise<void> {
  await client.migrate();
  const users = client.db.authlib_users.sqlName;
  await client.query(
    `CREATE TABLE IF NOT EXISTS app_passwords (user_id text PRIMARY KEY REFERENCES ${users} (id) ON DELETE CASCADE, hash text NOT NULL)`,
  );
}

/** Sign-up: the user row authlib reads, and the scrypt hash (never the password). */
export async function signUp(email: string, name: string, password: string): Promise<string> {
  const user = await client.db.authlib_users.create({ email: email.trim().toLowerCase(), name });
  await client.query("INSERT INTO app_passwords (user_id, hash) VALUES ($1, $2)", [user.id, await hashPassword(password)]);
  return user.id;
}

export const config: AuthConfig = {
  adapter: HostedDbAdapter(client), // sessions default to "database" with an adapter
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize({ email, password }) {
        const user = await client.db.authlib_users.findFirst({ email: String(email).trim().toLowerCase() });
        if (!user) return null;
        const { rows } = await client.query<{ hash: string }>("SELECT hash FROM app_passwords WHERE user_id = $1", [user.id]);
        const hash = rows[0]?.hash;
        if (!hash || !(await verifyPassword(String(password), hash))) return null;
        return { id: user.id, name: user.name, email: user.email };
      },
    }),
  ],
};
