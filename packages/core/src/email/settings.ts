/**
 * An email provider's sign-in settings (`confirm`, `code`), their defaults, and the start-up check of
 * them (`assert.ts`): a setting out of range fails `createAuth`, never the first sign-in.
 *
 * @module email/settings
 */
import { AuthError } from "../errors.js";
import type { EmailConfig } from "../provider-types.js";

/** Digits of a code unless the provider sets `code.length`. */
export const DEFAULT_CODE_LENGTH = 6;

const CONFIRM_MODES: ReadonlySet<unknown> = new Set(["always", "other-browser", "never"]);

/** The length of `provider`'s codes, or `undefined` when it sends none. */
export function codeLengthOf(provider: Pick<EmailConfig, "code">): number | undefined {
  if (provider.code === false) return undefined;
  return provider.code?.length ?? DEFAULT_CODE_LENGTH;
}

/** The error of an email provider whose `confirm` or `code` setting is not one it takes, else `undefined`. */
export function emailSettingsError(provider: Pick<EmailConfig, "id" | "code" | "confirm">): AuthError | undefined {
  if (provider.confirm !== undefined && !CONFIRM_MODES.has(provider.confirm)) {
    return new AuthError(
      `The email provider "${provider.id}" has \`confirm\` ${JSON.stringify(provider.confirm)}: use "always", "other-browser" or "never".`,
    );
  }
  const length = codeLengthOf(provider);
  if (length === undefined || (Number.isInteger(length) && length >= 6 && length <= 8)) return undefined;
  return new AuthError(
    `The email provider "${provider.id}" has \`code.length\` ${String(length)}: use 6, 7 or 8 digits, or \`code: false\`.`,
  );
}
