/**
 * The one-time code of an email sign-in mail, shown beside its link.
 *
 * The code is derived, never stored: `HMAC(secret, label + stored token hash)`, reduced to `length`
 * decimal digits. Only the browser that asked for the mail holds the stored hash (sealed in its flow
 * cookie, `email/flow-cookie.ts`), so a code is checked there only, and a database reader (who sees the
 * hash but not the secret) cannot compute it. Redeeming the code spends the same verification token as
 * the link, so the two are one single-use credential.
 *
 * @module email/sign-in-code
 */
import { timingSafeEqual } from "../crypto/compare.js";
import { hmacHex } from "../crypto/digest.js";

const LABEL = "authlib.email-code:";

/** Wrong codes a mail survives: the next one spends its token, and its link dies with it. */
export const MAX_WRONG_CODES = 5;

/** The code of the mail whose stored token hash is `hashedToken`, made with `secret`. */
export async function codeOf(secret: string, hashedToken: string, length: number): Promise<string> {
  const mac = await hmacHex(secret, LABEL + hashedToken);
  // 64 bits reduced to at most 8 digits: the bias is below 10^-11.
  const value = BigInt(`0x${mac.slice(0, 16)}`) % 10n ** BigInt(length);
  return value.toString().padStart(length, "0");
}

/** The digits of a typed code (spaces and dashes are dropped), or `undefined` when it is not `length` digits. */
export function typedCode(input: unknown, length: number): string | undefined {
  if (typeof input !== "string" || input.length > 32) return undefined;
  const digits = input.replace(/[\s-]/g, "");
  return digits.length === length && /^[0-9]+$/.test(digits) ? digits : undefined;
}

/** True when `typed` is the code of `hashedToken` under one of `secrets` (newest first), compared in constant time. */
export async function isCodeOf(secrets: readonly string[], hashedToken: string, typed: string): Promise<boolean> {
  let matched = false;
  for (const secret of secrets) {
    // Every secret is tried, whatever matched: the time does not tell which one did.
    if (timingSafeEqual(await codeOf(secret, hashedToken, typed.length), typed)) matched = true;
  }
  return matched;
}
