/**
 * Checking a code typed for a user's TOTP factor: a 6-digit code of their app (each accepted once: a
 * replay within its window is refused), or one of their recovery codes (spent once used).
 *
 * @module two-factor/codes
 */
import { IncorrectCode } from "../../errors.js";
import { nowInSeconds } from "../../session/assurance.js";
import type { InternalOptions } from "../../types/internal.js";
import { base32Decode } from "./base32.js";
import { claimCodeUse } from "./rate-limit.js";
import { storeFactor, type TotpFactor, type TwoFactorStore, totpFactorOf } from "./record.js";
import { matchingRecoveryHash, typedRecoveryCode } from "./recovery-codes.js";
import { matchingStep, TOTP_DIGITS, TOTP_SKEW_STEPS, TOTP_STEP_SECONDS } from "./totp.js";

/** How long an accepted TOTP code is remembered: as long as it could still be accepted (a function: see routes.ts). */
function usedCodeSeconds(): number {
  return (2 * TOTP_SKEW_STEPS + 2) * TOTP_STEP_SECONDS;
}
/**
 * A spent recovery code is also remembered as used for a day: the list loses it at once, so this only
 * decides two requests spending the same code at the same moment.
 */
function usedRecoverySeconds(): number {
  return 24 * 60 * 60;
}

/** The 6 digits of a typed TOTP code (spaces dropped), or `undefined`. */
export function typedTotp(input: unknown): string | undefined {
  if (typeof input !== "string" || input.length > 32) return undefined;
  const digits = input.replace(/\s/g, "");
  return digits.length === TOTP_DIGITS && /^[0-9]+$/.test(digits) ? digits : undefined;
}

/** The step `typed` is a code of for `factor` now, or `undefined`. */
export async function totpStepOf(factor: TotpFactor, typed: string): Promise<number | undefined> {
  const key = base32Decode(factor.secret);
  return key ? matchingStep(key, typed, nowInSeconds()) : undefined;
}

/**
 * Accepts `typed` (6 digits) as a code of `factor` now, once: throws `IncorrectCode` for a code that is
 * not the app's, or that was accepted before within its window (a replay).
 */
export async function acceptTotp(options: InternalOptions, userId: string, factor: TotpFactor, typed: string): Promise<void> {
  const step = await totpStepOf(factor, typed);
  if (step === undefined) throw new IncorrectCode("That is not the code your authenticator app shows. Check it and try again.");
  if (!(await claimCodeUse(options, userId, `totp:${step}`, usedCodeSeconds())))
    throw new IncorrectCode("This code was used already. Wait for the next one in your app.");
}

/**
 * The method `input` proves for `userId`'s confirmed factor: `"otp"` for a code of their app not used
 * before, `"recovery"` for an unused recovery code (spent now). Throws `IncorrectCode` otherwise.
 */
export async function proveWithCode(
  options: InternalOptions,
  store: TwoFactorStore,
  userId: string,
  factor: TotpFactor,
  input: unknown,
): Promise<"otp" | "recovery"> {
  const totp = typedTotp(input);
  if (totp !== undefined) {
    await acceptTotp(options, userId, factor, totp);
    return "otp";
  }
  const recovery = typeof input === "string" && input.length <= 64 ? typedRecoveryCode(input) : undefined;
  const hash = recovery === undefined ? undefined : await matchingRecoveryHash(options.secret, userId, recovery, factor.recovery);
  if (hash === undefined || !(await claimCodeUse(options, userId, `recovery:${hash}`, usedRecoverySeconds())))
    throw new IncorrectCode("That is not a code of your authenticator app or an unused recovery code.");
  await spendRecoveryHash(options, store, userId, hash);
  return "recovery";
}

/**
 * Removes `hash` from the user's recovery codes. The row is read again after the write: two codes spent
 * at once by two requests could each write a list with the other's code still in it.
 */
async function spendRecoveryHash(options: InternalOptions, store: TwoFactorStore, userId: string, hash: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await totpFactorOf(options, store, userId);
    if (!current?.recovery.includes(hash)) return;
    await storeFactor(options, store, userId, { ...current, recovery: current.recovery.filter((stored) => stored !== hash) });
  }
}
