/** German texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/de */
import type { SsoTexts } from "./keys.js";

export const de: SsoTexts = {
  "sso.continue": "Mit SSO fortfahren",
  "sso.emailLabel": "Geschäftliche E-Mail-Adresse",
  "sso.emailHint": "Wenn sich Ihre Organisation über ihren eigenen Identitätsanbieter anmeldet, geht es dort weiter.",
  "sso.required": "Ihre Organisation verlangt für diese Adresse ihr Single Sign-on: Melden Sie sich über das SSO Ihrer Organisation an.",
  "sso.failed":
    "Die Anmeldung über den Identitätsanbieter Ihrer Organisation wurde nicht abgeschlossen. Versuchen Sie es erneut oder bitten Sie die Administration Ihrer Organisation, die Verbindung zu prüfen.",
  "sso.title": "Single Sign-on",
  "sso.none": "Diese Organisation hat noch keine SSO-Verbindung.",
  "sso.created": "Die SSO-Verbindung wurde hinzugefügt.",
  "sso.invalid":
    "Diese Verbindung konnte nicht gespeichert werden: Prüfen Sie die Felder (ein https-Aussteller, Client-ID und Secret) und Ihre Rolle.",
  "sso.issuer": "Aussteller",
  "sso.idpEntityId": "Entity-ID des Identitätsanbieters",
  "sso.redirectUri": "Weiterleitungs-URI zur Registrierung beim Identitätsanbieter",
  "sso.spCertificate": "Zertifikat des Dienstanbieters",
  "sso.spEntityId": "Entity-ID des Dienstanbieters (und Metadaten-URL)",
  "sso.acsUrl": "URL des Assertion Consumer Service (ACS)",
  "sso.requiredBadge": "Nur SSO",
  "sso.requiredLabel": "SSO für Adressen der verifizierten Domains dieser Organisation verlangen",
  "sso.addOidc": "OIDC-Verbindung hinzufügen",
  "sso.name": "Bezeichnung",
  "sso.clientId": "Client-ID",
  "sso.clientSecret": "Client-Secret",
};
