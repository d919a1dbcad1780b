/**
 * An email provider's sign-in settings (`confirm`, `code`), their defaults, and the start-up check of
 * them: every email provider authlib makes (`Email`, `Nodemailer`, the mail services) has
 * {@link checkEmailSettings} as its `checkConfig`, so a setting out of range fails `createAuth`, never the
 * first sign-in. A provider object written by hand is checked when a sign-in first reads the setting.
 *
 * @module email/settings
 */
import { AuthError } from "../errors.js";
import type { EmailConfig, ProviderConfig } from "../types/providers.js";

/** Digits of a code unless the provider sets `code.length`. */
export const DEFAULT_CODE_LENGTH = 6;

const CONFIRM_MODES: ReadonlySet<unknown> = new Set(["always", "other-browser", "never"]);

/** The length of `provider`'s codes, or `undefined` when it sends none. Throws for a length out of range. */
export function codeLengthOf(provider: Pick<EmailConfig, "id" | "code">): number | undefined {
  if (provider.code === false) return undefined;
  const length = provider.code?.length ?? DEFAULT_CODE_LENGTH;
  if (Number.isInteger(length) && length >= 6 && length <= 8) return length;
  throw new AuthError(
    `The email provider "${provider.id}" has \`code.length\` ${String(length)}: use 6, 7 or 8 digits, or \`code: false\`.`,
  );
}

/** When `provider`'s links sign in on a `GET` (see `EmailConfig.confirm`). Throws for a value it does not take. */
export function confirmModeOf(provider: Pick<EmailConfig, "id" | "confirm">): NonNullable<EmailConfig["confirm"]> {
  const mode = provider.confirm ?? "other-browser";
  if (CONFIRM_MODES.has(mode)) return mode;
  throw new AuthError(
    `The email provider "${provider.id}" has \`confirm\` ${JSON.stringify(mode)}: use "always", "other-browser" or "never".`,
  );
}

/** The error of an email provider whose `confirm` or `code` setting is not one it takes, else `undefined`. */
export function emailSettingsError(provider: Pick<EmailConfig, "id" | "code" | "confirm">): AuthError | undefined {
  try {
    confirmModeOf(provider);
    codeLengthOf(provider);
    return undefined;
  } catch (error) {
    return error as AuthError;
  }
}

/** The `checkConfig` of the email providers authlib makes. */
export function checkEmailSettings({ provider }: { provider: ProviderConfig }): AuthError | undefined {
  return provider.type === "email" ? emailSettingsError(provider) : undefined;
}
