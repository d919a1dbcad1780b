/** English texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/en */
import type { OrganizationTexts } from "./keys.js";

export const en: OrganizationTexts = {
  "organization.mail.subject": "You are invited to join {organization} on {host}",
  "organization.mail.heading": "You are invited to join {organization} on",
  "organization.mail.button": "Open the invitation",
  "organization.mail.note":
    "The link works once, for this address, until it expires. If you did not expect it, ignore this mail: nothing happens until you accept.",
};
