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
  "sso.addSaml": "SAML-Verbindung hinzufügen",
  "sso.metadataXml": "Metadaten Ihres Identitätsanbieters (XML)",
  "sso.metadataHint":
    "Fügen Sie das vollständige Metadatendokument Ihres Identitätsanbieters ein: Entity-ID, Anmelde-URL und Signaturzertifikat werden daraus gelesen.",
  "sso.metadataUrl": "Oder die URL, unter der Ihr Identitätsanbieter sie veröffentlicht (https)",
  "sso.defaultRole": "Rolle der Mitglieder, die sich darüber anmelden",
  "sso.delete": "Löschen",
  "sso.deleted": "Die SSO-Verbindung wurde gelöscht.",
  "sso.invalidMetadata":
    "Die Metadaten des Identitätsanbieters konnten nicht gelesen werden: Fügen Sie das vollständige XML-Dokument genau eines SAML-2.0-Identitätsanbieters mit Anmelde-URL (HTTP-Redirect) und Signaturzertifikat ein.",
  "sso.notFound": "Diese Verbindung existiert nicht oder wurde bereits gelöscht.",
  "sso.forbidden":
    "Ihre Rolle erlaubt dies hier nicht, oder die Organisation hat die Höchstzahl aktiver SCIM-Token erreicht: Widerrufen Sie zuerst eines.",
  "sso.recentSignIn":
    "Zum Erstellen oder Widerrufen eines SCIM-Tokens ist eine kürzliche Anmeldung nötig: Melden Sie sich erneut an und versuchen Sie es dann noch einmal.",
  "sso.signInAgain": "Erneut anmelden",
  "sso.scimTitle": "SCIM-Bereitstellung",
  "sso.scimIntro":
    "Ihr Identitätsanbieter legt die Benutzer dieser Organisation über SCIM 2.0 an, ändert und entfernt sie: Geben Sie ihm die Basis-URL unten und ein Token.",
  "sso.scimBaseUrl": "SCIM-Basis-URL",
  "sso.scimNone": "Diese Organisation hat kein SCIM-Token.",
  "sso.scimCreated": "Erstellt am {date} von {creator}",
  "sso.scimLastUsed": "zuletzt verwendet am {date}",
  "sso.scimNeverUsed": "nie verwendet",
  "sso.scimCreate": "SCIM-Token erstellen",
  "sso.scimNewToken": "Ihr neues SCIM-Token",
  "sso.scimCopyHint": "Kopieren Sie es jetzt in Ihren Identitätsanbieter: Es wird nur dieses eine Mal angezeigt.",
  "sso.scimRevoke": "Widerrufen",
  "sso.scimRevoked": "Das SCIM-Token wurde widerrufen: Der Identitätsanbieter kann es nicht mehr verwenden.",
  "sso.scimNotFound": "Dieses SCIM-Token existiert nicht oder wurde bereits widerrufen.",
};
