/**
 * The mails of an email-address change: the link to the new address and the note to an address that
 * belongs to another account (the notice to the previous address, with its revert link, is notify.ts's).
 *
 * @module account-lifecycle/mail
 */

import { hostHeading, type RenderedMail, renderMail, textOf } from "../../email/template.js";
import type { MailSite } from "../../sign-in/account-mail.js";

/** The link that proves the new address. */
export function confirmNewAddressMail(site: MailSite, url: string): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.newAddress.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.newAddress.heading"), site.host),
    action: { label: textOf(site).t("mail.newAddress.button"), url },
    notes: [textOf(site).t("mail.newAddress.note")],
    theme: site.theme,
    text: textOf(site),
  });
}

/** Told to an address someone asked to attach to another account while it is this account's. */
export function addressTakenMail(site: MailSite): RenderedMail {
  return renderMail({
    subject: textOf(site).t("mail.addressTaken.subject", { host: site.host }),
    heading: hostHeading(textOf(site).t("mail.addressTaken.heading"), site.host),
    notes: [textOf(site).t("mail.addressTaken.note"), textOf(site).t("mail.addressTaken.ifYou")],
    theme: site.theme,
    text: textOf(site),
  });
}
