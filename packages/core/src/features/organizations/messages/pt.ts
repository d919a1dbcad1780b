/** Portuguese texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/pt */
import type { OrganizationTexts } from "./keys.js";

export const pt: OrganizationTexts = {
  "organization.mail.subject": "Você foi convidado para {organization} em {host}",
  "organization.mail.heading": "Você foi convidado para {organization} em",
  "organization.mail.button": "Abrir o convite",
  "organization.mail.note":
    "O link funciona uma vez, para este endereço, até expirar. Se você não o esperava, ignore este e-mail: nada acontece até você aceitar.",
};
