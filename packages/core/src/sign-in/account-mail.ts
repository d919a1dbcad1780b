/**
 * The transport of the account mails (the `Password()` provider's links and notices, email-address
 * changes): the Password() provider's own `sendMail` when it has one, else its email provider's (its
 * `mailer`, or the first that can), else the first email provider of the configuration with `sendMail`.
 * An app never configures mail twice.
 *
 * @module email/account-mail
 */

import { AuthlibMailError, mailFailureCause } from "../email/mail-failure.js";
import type { RenderedMail } from "../email/template.js";
import { EmailSignInError } from "../errors.js";
import { isPasswordProvider } from "../provider-kind.js";
import type { Awaitable, Theme } from "../types/config.js";
import type { Translator } from "../types/i18n.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { MailMessage, ProviderConfig } from "../types/providers.js";
import { passwordMailProvider } from "./password-config.js";

/** The site a mail names: its host (so a reader can tell a real mail from a phishing one) and theme. */
export interface MailSite {
  host: string;
  theme: Theme;
  /** The language of the request that causes the mail (English when absent). */
  text?: Translator;
}

/** The site of the request's app, in the request's language (its catalog loads on first use). */
export async function mailSite(options: InternalOptions, request: RequestInternal): Promise<MailSite> {
  const { requestTranslator } = await import("../i18n/request.js");
  return {
    host: new URL(options.origin).host,
    theme: options.theme,
    text: await requestTranslator(options.config, request.request, options.featureMessages),
  };
}

/** How account mails are sent (see the module comment), or `undefined` when nothing configured can. */
export function accountMailer(providers: readonly ProviderConfig[]): ((mail: MailMessage) => Awaitable<void>) | undefined {
  const password = providers.find(isPasswordProvider);
  if (password?.passwordAccounts.sendMail) return password.passwordAccounts.sendMail;
  const email = passwordMailProvider(password, providers);
  const send = email?.sendMail;
  return email && send ? (mail) => send(mail, email) : undefined;
}

/**
 * Sends `mail` to `to`; a failure is `EmailSignInError`, whose cause keeps the failure's name and codes
 * but not its text (a server's refusal quotes the address: see email/mail-failure.ts).
 */
export async function sendAccountMail(options: InternalOptions, to: string, mail: RenderedMail): Promise<void> {
  const send = accountMailer(options.providers);
  try {
    if (!send) throw new AuthlibMailError("No email provider with sendMail is configured, and Password() has no sendMail.");
    await send({ to, ...mail });
  } catch (error) {
    throw new EmailSignInError("The email could not be sent. Try again later.", { cause: mailFailureCause(error) });
  }
}
