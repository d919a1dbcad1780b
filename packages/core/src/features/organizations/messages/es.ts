/** Spanish texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/es */
import type { OrganizationTexts } from "./keys.js";

export const es: OrganizationTexts = {
  "organization.mail.subject": "Te invitan a unirte a {organization} en {host}",
  "organization.mail.heading": "Te invitan a unirte a {organization} en",
  "organization.mail.button": "Abrir la invitación",
  "organization.mail.note":
    "El enlace funciona una vez, para esta dirección, hasta que caduque. Si no lo esperabas, ignora este correo: no pasa nada hasta que aceptes.",
};
