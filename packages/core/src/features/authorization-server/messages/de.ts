/** German texts of the authorization server's pages and notices (keys and placeholders as in `en.ts`). @module features/authorization-server/messages/de */
import type { AuthorizationServerTexts } from "./keys.js";

export const de: AuthorizationServerTexts = {
  "oauth.consent.title": "Zugriff auf Ihr Konto erlauben?",
  "oauth.consent.lead": "{client} möchte Ihr Konto verwenden.",
  "oauth.consent.redirect": "Nach Ihrer Entscheidung kehren Sie zu {host} zurück.",
  "oauth.consent.device": "Die Anfrage kommt von dem Gerät, das den Code {code} anzeigt.",
  "oauth.consent.scopes": "Die Anwendung kann dann:",
  "oauth.consent.signedInAs": "Sie sind als {account} angemeldet.",
  "oauth.consent.allow": "Erlauben",
  "oauth.consent.deny": "Ablehnen",
  "oauth.consent.secondFactor":
    "Ein Teil dieses Zugriffs erfordert eine Anmeldung mit Ihrem zweiten Faktor. Schalten Sie die Bestätigung in zwei Schritten in Ihrem Konto ein, falls sie aus ist, und melden Sie sich dann erneut an.",
  "oauth.consent.expired": "Diese Anfrage ist abgelaufen. Beginnen Sie erneut in der Anwendung.",
  "oauth.scope.openid": "Wissen, wer Sie sind",
  "oauth.scope.profile": "Ihren Namen und Ihr Bild sehen",
  "oauth.scope.email": "Ihre E-Mail-Adresse sehen",
  "oauth.scope.offline_access": "Diesen Zugriff behalten, auch wenn Sie die Anwendung gerade nicht nutzen",
  "oauth.device.title": "Gerät verbinden",
  "oauth.device.lead": "Geben Sie den Code ein, den Ihr Gerät anzeigt.",
  "oauth.device.code": "Gerätecode",
  "oauth.device.continue": "Weiter",
  "oauth.device.invalid":
    "Dieser Code ist ungültig, wurde schon verwendet oder ist abgelaufen. Prüfen Sie den Code auf Ihrem Gerät oder beginnen Sie dort erneut.",
  "oauth.device.approved": "Fertig. Sie können zu Ihrem Gerät zurückkehren.",
  "oauth.device.denied": "Das Gerät hat keinen Zugriff erhalten. Sie können diese Seite schließen.",
  "oauth.grants.title": "Verbundene Anwendungen",
  "oauth.grants.none": "Keine Anwendung hat Zugriff auf Ihr Konto.",
  "oauth.grants.since": "Verbunden am {date}",
  "oauth.grants.lastUsed": "zuletzt verwendet am {date}",
  "oauth.grants.revoke": "Zugriff widerrufen",
  "oauth.grants.revoked": "Die Anwendung hat keinen Zugriff mehr auf Ihr Konto.",
  "oauth.grants.notFound": "Diese Anwendung ist nicht mit Ihrem Konto verbunden: Ihr Zugriff ist vielleicht schon beendet.",
  "mail.change.applicationAuthorized":
    "Eine Anwendung hat Zugriff auf Ihr Konto erhalten. Prüfen Sie die verbundenen Anwendungen auf Ihrer Kontoseite.",
  "mail.change.applicationRevoked":
    "Der Zugriff einer Anwendung auf Ihr Konto wurde widerrufen. Wenn Sie das nicht waren, prüfen Sie Ihre Kontoseite und ändern Sie Ihr Passwort.",
};
