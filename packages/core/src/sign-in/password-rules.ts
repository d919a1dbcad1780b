/**
 * The password and name rules of sign-up, reset and change: a length range (8 to 128 characters by
 * default, configurable), checked on the server, with one named error per rule. No composition rules
 * (NIST SP 800-63B): length is what makes a password strong, and forced symbols make it weaker.
 *
 * Passwords are NFKC-normalised before they are counted, hashed or checked, so the same password typed
 * on two keyboards (a composed "é" or its two code points, a full-width digit) is the same password.
 *
 * @module password-accounts/rules
 */
import { InvalidName, InvalidPassword } from "../errors.js";
import type { PasswordSettings } from "../types/providers.js";

/**
 * The longest password any configuration may allow, and the longest a sign-in checks (a password set
 * under an older, larger `maxLength` still signs in).
 */
export const MAX_PASSWORD_LENGTH = 1024;

/** The longest name a user gives at sign-up, in characters. */
export const MAX_NAME_LENGTH = 64;

/** Control characters and line or paragraph separators: a name is one line of plain text. */
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

function invalidPassword(rule: InvalidPassword["rule"], message: string): InvalidPassword {
  const error = new InvalidPassword(message);
  error.rule = rule;
  return error;
}

/** `input` as the password it stands for (NFKC), or `undefined` when it is not text. */
export function normalisedPassword(input: unknown): string | undefined {
  return typeof input === "string" ? input.normalize("NFKC") : undefined;
}

/** The new password of `input` (normalised), or `InvalidPassword` naming the rule it breaks. */
export function newPassword(input: unknown, settings: Pick<PasswordSettings, "minLength" | "maxLength">): string {
  const password = normalisedPassword(input);
  if (password === undefined || password === "") throw invalidPassword("missing", "Choose a password.");
  const length = [...password].length;
  if (length < settings.minLength) {
    throw invalidPassword("too-short", `Use at least ${settings.minLength} characters for your password.`);
  }
  if (length > settings.maxLength) {
    throw invalidPassword("too-long", `Use at most ${settings.maxLength} characters for your password.`);
  }
  return password;
}

/**
 * The name given at sign-up, trimmed and NFC-normalised; `null` when none was given. Throws
 * `InvalidName` for a name longer than {@link MAX_NAME_LENGTH} characters or not one line.
 */
export function signUpName(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== "string") throw new InvalidName("Your name must be text.");
  const name = input.normalize("NFC").trim();
  if (name === "") return null;
  if ([...name].length > MAX_NAME_LENGTH) throw new InvalidName(`Use at most ${MAX_NAME_LENGTH} characters for your name.`);
  if (NOT_ONE_LINE.test(name)) throw new InvalidName("Your name must be one line of text.");
  return name;
}
