/**
 * The demo's one password user. Its hash is computed at start (scrypt, through authlib's hashPassword),
 * the way an app would store it; its row in the database is created at start too (see database.ts).
 */
import type { User } from "@authlib/core";
import { hashPassword, verifyPassword } from "@authlib/core/password";

/** The demo user's id in the database. */
export const DEMO_USER_ID = "demo-user";
/** The demo user's email address. */
export const DEMO_EMAIL = "demo@authlib.dev";
/** The demo user's display name. */
export const DEMO_NAME = "Demo User";
/** The demo user's password, shown on the home page. */
export const DEMO_PASSWORD = "correct-horse-battery";

let passwordHash: Promise<string> | undefined;

/** The stored hash of the demo password, computed once (the server does it at start). */
export function demoPasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(DEMO_PASSWORD);
  return passwordHash;
}

/** The demo user when `email` and `password` are theirs, otherwise `null`. */
export async function authorizeDemoUser(email: unknown, password: unknown): Promise<User | null> {
  if (typeof email !== "string" || typeof password !== "string") return null;
  // Always verify, so a wrong email takes as long as a wrong password.
  const passwordMatches = await verifyPassword(password, await demoPasswordHash());
  if (!passwordMatches || email.trim().toLowerCase() !== DEMO_EMAIL) return null;
  return { id: DEMO_USER_ID, name: DEMO_NAME, email: DEMO_EMAIL };
}
