/**
 * What the `Password()` provider needs from the rest of the configuration, checked by `createAuth`
 * (through the provider's `checkConfig`): an adapter with the methods its accounts use, and a way to send
 * its mails.
 *
 * @module password-accounts/config-check
 */

import { missingMethods, userMethods } from "../adapter/capabilities.js";
import { InvalidProvider, MissingAdapter, MissingAdapterMethods } from "../errors.js";
import type { Adapter } from "../types/adapters.js";
import type { EmailConfig, PasswordConfig, ProviderConfig } from "../types/providers.js";

/** The adapter methods of the password accounts: users, their account rows (which hold the hashes), links spent once. */
export const passwordMethods: readonly (keyof Adapter)[] = [
  ...userMethods,
  "listAccountsByUserId",
  "updateAccount",
  "createVerificationToken",
];

/**
 * The email provider whose transport sends the password provider's mails: the one named by its
 * `mailer`, else the first that can (`sendMail`); `undefined` when none can.
 */
export function passwordMailProvider(
  provider: { passwordAccounts: Pick<PasswordConfig["passwordAccounts"], "mailer"> } | undefined,
  providers: readonly ProviderConfig[],
): EmailConfig | undefined {
  const mailer = provider?.passwordAccounts.mailer;
  return providers.find(
    (p): p is EmailConfig => p.type === "email" && typeof p.sendMail === "function" && (mailer === undefined || p.id === mailer),
  );
}

/** The configuration error of `provider` in `context`, or `undefined`. */
export function passwordConfigError(
  provider: Pick<PasswordConfig, "id" | "passwordAccounts">,
  context: { providers: readonly ProviderConfig[]; adapter: Adapter | undefined },
): InvalidProvider | MissingAdapter | undefined {
  const { adapter } = context;
  if (!adapter) return new MissingAdapter("The Password provider keeps its accounts in the database: set `adapter` in the config.");
  const missing = missingMethods(adapter, passwordMethods);
  if (missing.length > 0)
    return new MissingAdapterMethods(`The Password provider needs these adapter methods, which are missing: ${missing.join(", ")}.`);
  if (!provider.passwordAccounts.sendMail && !passwordMailProvider(provider, context.providers)) {
    return new InvalidProvider(
      `The Password provider "${provider.id}" sends verification and reset mails: add an email provider (Nodemailer, Resend, …) or give it \`sendMail\`.`,
    );
  }
  return undefined;
}
