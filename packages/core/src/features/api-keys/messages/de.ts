/** German texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/de */
import type { ApiKeyTexts } from "./keys.js";

export const de: ApiKeyTexts = {
  "apiKeys.title": "API-Schlüssel",
  "apiKeys.none": "Sie haben keine API-Schlüssel.",
  "apiKeys.created": "Erstellt {date}",
  "apiKeys.lastUsed": "zuletzt verwendet {date}",
  "apiKeys.neverUsed": "nie verwendet",
  "apiKeys.expires": "läuft ab {date}",
  "apiKeys.neverExpires": "läuft nie ab",
  "apiKeys.revoke": "Widerrufen",
  "apiKeys.revoked": "Der API-Schlüssel wurde widerrufen.",
  "apiKeys.create": "Schlüssel erstellen",
  "apiKeys.name": "Bezeichnung",
  "apiKeys.scopes": "Berechtigungen",
  "apiKeys.newKey": "Ihr neuer API-Schlüssel",
  "apiKeys.copyHint": "Kopieren Sie ihn jetzt und bewahren Sie ihn sicher auf: Er wird nur einmal angezeigt.",
  "apiKeys.notFound": "Dieser API-Schlüssel existiert nicht oder wurde bereits widerrufen.",
  "apiKeys.invalid":
    "Dieser Schlüssel kann nicht erstellt werden: Prüfen Sie Name, Berechtigungen und Laufzeit, oder widerrufen Sie zuerst einen Schlüssel.",
  "apiKeys.organizationTitle": "API-Schlüssel der Organisation",
  "mail.change.apiKeyCreated":
    "Für Ihr Konto wurde ein API-Schlüssel erstellt. Falls Sie das nicht waren, widerrufen Sie ihn auf Ihrer Kontoseite und ändern Sie Ihr Passwort.",
  "mail.change.apiKeyRevoked":
    "Ein API-Schlüssel Ihres Kontos wurde widerrufen. Wenn Sie das nicht waren, prüfen Sie Ihre Kontoseite und ändern Sie Ihr Passwort.",
};
