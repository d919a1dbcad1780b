/**
 * Password hashing for the credentials provider, with scrypt (memory-hard): `node:crypto`'s where the
 * runtime has it, else `@noble/hashes` (see `crypto/scrypt`), so this module loads on every runtime.
 * The hash string carries its parameters and salt: `scrypt$N$r$p$<salt b64url>$<key b64url>`, so the
 * cost can be raised later without invalidating stored hashes.
 *
 * Hashes are capped per process: at most 2 run at once and 64 wait, in order (change it with
 * {@link setPasswordHashLimits}). Beyond that, `hashPassword` and `verifyPassword` reject at once with
 * `RateLimited`, so a flood of sign-in attempts cannot take every thread of the pool (scrypt runs on
 * libuv's, which file and DNS work share) or queue without bound; the sign-in page then says to try
 * again later.
 *
 * @module password
 */
import { ConcurrencyGate, type GateLoad } from "./crypto/concurrency-gate.js";
import { hashPasswordWith, verifyPasswordWith } from "./crypto/password-hash.js";
import { defaultScrypt } from "./crypto/scrypt.js";
import { AuthError, RateLimited } from "./errors.js";

/** Caps on password hashing in this process. */
export interface PasswordHashLimits {
  /** Hashes that run at once. Default 2. */
  maxConcurrent?: number;
  /** Hashes that may wait for a free slot (first in, first out). Default 64. */
  maxQueued?: number;
}

/** How many password hashes run and wait now (for metrics and health checks). */
export type PasswordHashLoad = GateLoad;
export type { GateLoad };

const DEFAULT_CONCURRENT = 2;
const DEFAULT_QUEUED = 64;

const gate = new ConcurrencyGate(DEFAULT_CONCURRENT, DEFAULT_QUEUED, () => {
  const busy = new RateLimited("Too many password hashes are waiting; try again in a moment.");
  busy.retryAfter = 1;
  return busy;
});

/**
 * Sets the caps on password hashing for this process (see the module comment); an absent field goes
 * back to its default. Throws `AuthError` for a count that is not a whole number (at least 1 running,
 * at least 0 waiting).
 */
export function setPasswordHashLimits(limits: PasswordHashLimits = {}): void {
  const running = limits.maxConcurrent ?? DEFAULT_CONCURRENT;
  const queued = limits.maxQueued ?? DEFAULT_QUEUED;
  if (!Number.isSafeInteger(running) || running < 1) throw new AuthError("maxConcurrent must be a whole number of at least 1.");
  if (!Number.isSafeInteger(queued) || queued < 0) throw new AuthError("maxQueued must be a whole number of at least 0.");
  gate.resize(running, queued);
}

/** How many password hashes run and wait now. */
export function passwordHashLoad(): PasswordHashLoad {
  return gate.load;
}

/** Hashes a password for storage. Rejects with `RateLimited` when too many hashes are waiting. */
export function hashPassword(password: string): Promise<string> {
  return gate.run(() => hashPasswordWith(defaultScrypt(), password));
}

/**
 * True when `password` matches `hash` (made by {@link hashPassword}). Constant-time; false for a
 * malformed hash. Rejects with `RateLimited` when too many hashes are waiting.
 */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return gate.run(() => verifyPasswordWith(defaultScrypt(), password, hash));
}
