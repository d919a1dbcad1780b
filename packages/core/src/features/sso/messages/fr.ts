/** French texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/fr */
import type { SsoTexts } from "./keys.js";

export const fr: SsoTexts = {
  "sso.continue": "Continuer avec le SSO",
  "sso.emailLabel": "Adresse e-mail professionnelle",
  "sso.emailHint": "Si votre organisation se connecte avec son propre fournisseur d’identité, vous continuerez chez lui.",
  "sso.required":
    "Votre organisation exige son authentification unique pour cette adresse : connectez-vous avec le SSO de votre organisation.",
  "sso.failed":
    "La connexion via le fournisseur d’identité de votre organisation n’a pas abouti. Réessayez, ou demandez à l’administrateur de votre organisation de vérifier la connexion.",
  "sso.title": "Authentification unique",
  "sso.none": "Cette organisation n’a pas encore de connexion SSO.",
  "sso.created": "La connexion SSO a été ajoutée.",
  "sso.invalid":
    "Cette connexion n’a pas pu être enregistrée : vérifiez ses champs (un émetteur https, un identifiant et un secret client) et votre rôle.",
  "sso.issuer": "Émetteur",
  "sso.idpEntityId": "Identifiant d’entité du fournisseur d’identité",
  "sso.redirectUri": "URI de redirection à enregistrer chez votre fournisseur d’identité",
  "sso.spCertificate": "Certificat du fournisseur de services",
  "sso.spEntityId": "Identifiant d’entité du fournisseur de services (et URL des métadonnées)",
  "sso.acsUrl": "URL du service consommateur d’assertions (ACS)",
  "sso.requiredBadge": "SSO uniquement",
  "sso.requiredLabel": "Exiger le SSO pour les adresses des domaines vérifiés de cette organisation",
  "sso.addOidc": "Ajouter une connexion OIDC",
  "sso.name": "Nom",
  "sso.clientId": "Identifiant client",
  "sso.clientSecret": "Secret client",
};
