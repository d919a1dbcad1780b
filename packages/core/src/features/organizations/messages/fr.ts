/** French texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/fr */
import type { OrganizationTexts } from "./keys.js";

export const fr: OrganizationTexts = {
  "organization.mail.subject": "Invitation à rejoindre {organization} sur {host}",
  "organization.mail.heading": "Vous êtes invité à rejoindre {organization} sur",
  "organization.mail.button": "Ouvrir l’invitation",
  "organization.mail.note":
    "Le lien fonctionne une fois, pour cette adresse, jusqu’à son expiration. Si vous ne l’attendiez pas, ignorez ce message : rien ne se passe tant que vous n’acceptez pas.",
};
