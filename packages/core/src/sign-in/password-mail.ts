/**
 * The password provider's mails (sent by `email/account-mail.ts`: through the configuration's email
 * provider, the same SMTP server or mail service as the sign-in links, or the provider's own `sendMail`).
 *
 * Every request that may send a mail sends exactly one, whoever owns the address: a sign-up sends the
 * verification link, or tells the owner an account exists; a reset request sends the link, or tells the
 * address it has no account. So neither the answer nor the time it takes tells a caller which it was.
 *
 * @module password-accounts/mail
 */

import { hostHeading, type RenderedMail, renderMail, textOf } from "../email/template.js";
import type { MailSite } from "./account-mail.js";

/** The sign-up verification link. */
export function signUpMail(site: MailSite, url: string): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.signUp.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.signUp.heading"), site.host),
    action: { label: textOf(site).t("mail.signUp.button"), url },
    notes: [textOf(site).t("mail.signUp.note")],
    theme: site.theme,
    text: textOf(site),
  });
}

/** Told to the owner of an address someone tried to sign up with again. */
export function accountExistsMail(site: MailSite, signInUrl: string): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.accountExists.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.accountExists.heading"), site.host),
    action: { label: textOf(site).t("mail.accountExists.button"), url: signInUrl },
    notes: [
      textOf(site).t("mail.accountExists.note", { forgot: textOf(site).t("signin.forgotPassword") }),
      textOf(site).t("mail.accountExists.notYou"),
    ],
    theme: site.theme,
    text: textOf(site),
  });
}

/** The password-reset link. */
export function resetMail(site: MailSite, url: string, minutes: number): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.reset.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.reset.heading"), site.host),
    action: { label: textOf(site).t("mail.reset.button"), url },
    notes: [textOf(site).t("mail.reset.validity", { minutes }), textOf(site).t("mail.reset.notYou")],
    theme: site.theme,
    text: textOf(site),
  });
}

/** Told to an address that asked for a reset and has no account. */
export function noAccountMail(site: MailSite, signUpUrl: string): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.noAccount.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.noAccount.heading"), site.host),
    action: { label: textOf(site).t("mail.noAccount.button"), url: signUpUrl },
    notes: [textOf(site).t("mail.noAccount.note")],
    theme: site.theme,
    text: textOf(site),
  });
}

/** Told to the owner after their password changed. */
export function passwordChangedMail(site: MailSite, forgotUrl: string): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.passwordChanged.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.passwordChanged.heading"), site.host),
    action: { label: textOf(site).t("mail.passwordChanged.button"), url: forgotUrl },
    notes: [textOf(site).t("mail.passwordChanged.note")],
    theme: site.theme,
    text: textOf(site),
  });
}
