/**
 * Password hashing for the credentials provider, with scrypt (memory-hard): `node:crypto`'s where the
 * runtime has it, else `@noble/hashes` (see `crypto/scrypt`), so this module loads on every runtime.
 * The hash string carries its parameters and salt: `scrypt$N$r$p$<salt b64url>$<key b64url>`, so the
 * cost can be raised later without invalidating stored hashes.
 *
 * @module password
 */
import { hashPasswordWith, verifyPasswordWith } from "./crypto/password-hash.js";
import { defaultScrypt } from "./crypto/scrypt.js";

/** Hashes a password for storage. */
export function hashPassword(password: string): Promise<string> {
  return hashPasswordWith(defaultScrypt(), password);
}

/** True when `password` matches `hash` (made by {@link hashPassword}). Constant-time; false for a malformed hash. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return verifyPasswordWith(defaultScrypt(), password, hash);
}
