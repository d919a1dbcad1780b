/**
 * Recovery codes: ten single-use codes shown once when TOTP is turned on, for the day the authenticator
 * app is lost. Each has ~49 random bits (`xxxxx-xxxxx` in a 31-character alphabet without look-alikes), kept
 * only as a keyed hash bound to its user: a database reader cannot test guesses without the secret, and
 * a code of one user is no code of another.
 *
 * @module two-factor/recovery-codes
 */
import { timingSafeEqual } from "../../crypto/compare.js";
import { hmacHex } from "../../crypto/digest.js";

/** How many codes a user gets. */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits without 0/o, 1/l/i, so a code read off paper is typed right. */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const HALF = 5;

function randomHalf(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(HALF));
  // 31 letters: a byte modulo 31 is biased by < 1 %, and a code keeps > 49 bits.
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/** {@link RECOVERY_CODE_COUNT} new codes, as the user is shown them. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${randomHalf()}-${randomHalf()}`);
}

/** A typed recovery code in its stored form (lower case, no spaces or dash), or `undefined` when it cannot be one. */
export function typedRecoveryCode(input: string): string | undefined {
  const clean = input.replace(/[\s-]/g, "").toLowerCase();
  return clean.length === HALF * 2 && [...clean].every((char) => ALPHABET.includes(char)) ? clean : undefined;
}

/** The stored hash of `userId`'s recovery code `code` (as {@link typedRecoveryCode} gives it) under `secret`. */
export async function hashRecoveryCode(secret: string, userId: string, code: string): Promise<string> {
  return hmacHex(secret, `authlib.recovery-code:${userId}:${code}`);
}

/**
 * The stored hash among `hashes` that `code` matches under one of `secrets`, or `undefined`. Every secret
 * and every hash is compared (constant time), whatever matched.
 */
export async function matchingRecoveryHash(
  secrets: readonly string[],
  userId: string,
  code: string,
  hashes: readonly string[],
): Promise<string | undefined> {
  let matched: string | undefined;
  for (const secret of secrets) {
    const hash = await hashRecoveryCode(secret, userId, code);
    for (const stored of hashes) if (timingSafeEqual(hash, stored) && matched === undefined) matched = stored;
  }
  return matched;
}
