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
import type { MailSite } from "../email/account-mail.js";
import { hostHeading, type RenderedMail, renderMail } from "../email/template.js";

/** The sign-up verification link. */
export function signUpMail(site: MailSite, url: string): RenderedMail {
  return renderMail({
    subject: site.text.t("mail.signUp.subject", { host: site.host }),
    heading: hostHeading(site.text.t("mail.signUp.heading"), site.host),
    action: { label: site.text.t("mail.signUp.button"), url },
    notes: [site.text.t("mail.signUp.note")],
    theme: site.theme,
    text: site.text,
  });
}

/** Told to the owner of an address someone tried to sign up with again. */
export function accountExistsMail(site: MailSite, signInUrl: string): RenderedMail {
  return renderMail({
    subject: site.text.t("mail.accountExists.subject", { host: site.host }),
    heading: hostHeading(site.text.t("mail.accountExists.heading"), site.host),
    action: { label: site.text.t("mail.accountExists.button"), url: signInUrl },
    notes: [
      site.text.t("mail.accountExists.note", { forgot: site.text.t("signin.forgotPassword") }),
      site.text.t("mail.accountExists.notYou"),
    ],
    theme: site.theme,
    text: site.text,
  });
}

/** The password-reset link. */
export function resetMail(site: MailSite, url: string, minutes: number): RenderedMail {
  return renderMail({
    subject: site.text.t("mail.reset.subject", { host: site.host }),
    heading: hostHeading(site.text.t("mail.reset.heading"), site.host),
    action: { label: site.text.t("mail.reset.button"), url },
    notes: [site.text.t("mail.reset.validity", { minutes }), site.text.t("mail.reset.notYou")],
    theme: site.theme,
    text: site.text,
  });
}

/** Told to an address that asked for a reset and has no account. */
export function noAccountMail(site: MailSite, signUpUrl: string): RenderedMail {
  return renderMail({
    subject: site.text.t("mail.noAccount.subject", { host: site.host }),
    heading: hostHeading(site.text.t("mail.noAccount.heading"), site.host),
    action: { label: site.text.t("mail.noAccount.button"), url: signUpUrl },
    notes: [site.text.t("mail.noAccount.note")],
    theme: site.theme,
    text: site.text,
  });
}

/** Told to the owner after their password changed. */
export function passwordChangedMail(site: MailSite, forgotUrl: string): RenderedMail {
  return renderMail({
    subject: site.text.t("mail.passwordChanged.subject", { host: site.host }),
    heading: hostHeading(site.text.t("mail.passwordChanged.heading"), site.host),
    action: { label: site.text.t("mail.passwordChanged.button"), url: forgotUrl },
    notes: [site.text.t("mail.passwordChanged.note")],
    theme: site.theme,
    text: site.text,
  });
}
