/**
 * The invitation mail: the organization's name, the app's host, and the link to the page that accepts.
 *
 * @module features/organizations/mail
 */
import { hostHeading, type RenderedMail, renderMail, textOf } from "../../email/template.js";
import type { MailSite } from "../../sign-in/account-mail.js";

/** The invitation to `organization`, whose link is `url`. */
export function invitationMail(site: MailSite, organization: string, url: string): RenderedMail {
  const text = textOf(site);
  return renderMail({
    subject: text.t("organization.mail.subject", { organization, host: site.host }),
    heading: hostHeading(text.t("organization.mail.heading", { organization }), site.host),
    action: { label: text.t("organization.mail.button"), url },
    notes: [text.t("organization.mail.note")],
    theme: site.theme,
    text,
  });
}
