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
    subject: `Confirm your email address for ${site.host}`,
    heading: hostHeading("Confirm your email address for", site.host),
    action: { label: "Confirm email address", url },
    notes: ["Someone (hopefully you) created an account with this address. If it was not you, ignore this email: no account is made."],
    theme: site.theme,
  });
}

/** Told to the owner of an address someone tried to sign up with again. */
export function accountExistsMail(site: MailSite, signInUrl: string): RenderedMail {
  return renderMail({
    subject: `You already have an account on ${site.host}`,
    heading: hostHeading("You already have an account on", site.host),
    action: { label: "Sign in", url: signInUrl },
    notes: [
      'Someone tried to create an account with this address. If it was you, sign in instead; if you forgot your password, choose "Forgot your password?" there.',
      "If it was not you, ignore this email: nothing changed.",
    ],
    theme: site.theme,
  });
}

/** The password-reset link. */
export function resetMail(site: MailSite, url: string, minutes: number): RenderedMail {
  return renderMail({
    subject: `Reset your password for ${site.host}`,
    heading: hostHeading("Reset your password for", site.host),
    action: { label: "Choose a new password", url },
    notes: [
      `The link works once, for ${minutes} minutes, in the browser where you asked for it.`,
      "If you did not ask to reset your password, ignore this email: your password stays as it is.",
    ],
    theme: site.theme,
  });
}

/** Told to an address that asked for a reset and has no account. */
export function noAccountMail(site: MailSite, signUpUrl: string): RenderedMail {
  return renderMail({
    subject: `Password reset for ${site.host}`,
    heading: hostHeading("Password reset for", site.host),
    action: { label: "Create an account", url: signUpUrl },
    notes: [
      "Someone asked to reset the password of an account with this address, but there is none. If it was not you, ignore this email.",
    ],
    theme: site.theme,
  });
}

/** Told to the owner after their password changed. */
export function passwordChangedMail(site: MailSite, forgotUrl: string): RenderedMail {
  return renderMail({
    subject: `Your password for ${site.host} changed`,
    heading: hostHeading("Your password changed on", site.host),
    action: { label: "It was not me: reset it", url: forgotUrl },
    notes: ["Your password was just changed, and every other device was signed out. If this was you, there is nothing to do."],
    theme: site.theme,
  });
}
