/**
 * The mails of an email-address change: the link to the new address, the note to an address that
 * belongs to another account, and the notice to the previous address.
 *
 * @module account-lifecycle/mail
 */
import type { MailSite } from "../email/account-mail.js";
import { hostHeading, type RenderedMail, renderMail } from "../email/template.js";

/** The link that proves the new address. */
export function confirmNewAddressMail(site: MailSite, url: string): RenderedMail {
  return renderMail({
    subject: `Confirm your new email address for ${site.host}`,
    heading: hostHeading("Confirm your new email address for", site.host),
    action: { label: "Use this address", url },
    notes: ["Someone signed in to an account asked to use this address. If it was not you, ignore this email: nothing changes."],
    theme: site.theme,
  });
}

/** Told to an address someone asked to attach to another account while it is this account's. */
export function addressTakenMail(site: MailSite): RenderedMail {
  return renderMail({
    subject: `Your email address on ${site.host}`,
    heading: hostHeading("Your email address on", site.host),
    notes: [
      "Someone signed in to another account asked to use this address. It stays yours: nothing changed.",
      "If it was you, sign in to the account this address belongs to instead.",
    ],
    theme: site.theme,
  });
}

/** Told to the previous address once the change is made. */
export function addressChangedMail(site: MailSite): RenderedMail {
  return renderMail({
    subject: `Your email address for ${site.host} changed`,
    heading: hostHeading("Your email address changed on", site.host),
    notes: ["Your account now uses another email address. If you did not ask for this, sign in and change it back, or contact the site."],
    theme: site.theme,
  });
}
