/** German texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/de */
import type { OrganizationTexts } from "./keys.js";

export const de: OrganizationTexts = {
  "organization.mail.subject": "Einladung zu {organization} auf {host}",
  "organization.mail.heading": "Sie sind eingeladen zu {organization} auf",
  "organization.mail.button": "Einladung öffnen",
  "organization.mail.note":
    "Der Link funktioniert einmal, für diese Adresse, bis er abläuft. Wenn Sie ihn nicht erwartet haben, ignorieren Sie diese Mail: Ohne Ihre Zustimmung geschieht nichts.",
};
