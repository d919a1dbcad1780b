/** German texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/de */
import type { SsoTexts } from "./keys.js";

export const de: SsoTexts = {
  "sso.continue": "Mit SSO fortfahren",
  "sso.emailLabel": "Geschäftliche E-Mail-Adresse",
  "sso.emailHint": "Wenn sich Ihre Organisation über ihren eigenen Identitätsanbieter anmeldet, geht es dort weiter.",
  "sso.required": "Ihre Organisation verlangt für diese Adresse ihr Single Sign-on: Melden Sie sich über das SSO Ihrer Organisation an.",
  "sso.failed":
    "Die Anmeldung über den Identitätsanbieter Ihrer Organisation wurde nicht abgeschlossen. Versuchen Sie es erneut oder bitten Sie die Administration Ihrer Organisation, die Verbindung zu prüfen.",
};
