/**
 * docs/getting-started.md: the smallest user store a credentials sign-in needs, in memory. A real app
 * keeps users in its database (see database-credentials.ts); the shape of what `authorize` needs is the same.
 */
import { hashPassword } from "@authlib/core/password";

/** A user of the app, with the hash `hashPassword` made at sign-up (never the password itself). */
export interface AppUser {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
}

const users = new Map<string, AppUser>();

/** Signs a user up: the password is hashed (scrypt) before it is stored. */
export async function signUp(name: string, email: string, password: string): Promise<AppUser> {
  const user = { id: crypto.randomUUID(), name, email: email.toLowerCase(), passwordHash: await hashPassword(password) };
  users.set(user.email, user);
  return user;
}

/**
 * One user to try it with (a real app signs users up from a form), made on first use: workerd
 * (Cloudflare) refuses random values and hashing at a module's top level.
 */
let seeded: Promise<AppUser> | undefined;

/** The user with this email, or `null`. */
export async function findUserByEmail(email: string): Promise<AppUser | null> {
  seeded ??= signUp("Ada Lovelace", "ada@example.com", "correct horse battery staple");
  await seeded;
  return users.get(email.toLowerCase()) ?? null;
}
