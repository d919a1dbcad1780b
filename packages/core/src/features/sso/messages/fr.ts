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
  "sso.addSaml": "Ajouter une connexion SAML",
  "sso.metadataXml": "Métadonnées de votre fournisseur d’identité (XML)",
  "sso.metadataHint":
    "Collez le document de métadonnées complet que publie votre fournisseur d’identité : son identifiant d’entité, son URL de connexion et son certificat de signature y sont lus.",
  "sso.metadataUrl": "Ou l’URL où votre fournisseur d’identité les publie (https)",
  "sso.defaultRole": "Rôle des membres qui se connectent par elle",
  "sso.delete": "Supprimer",
  "sso.deleted": "La connexion SSO a été supprimée.",
  "sso.invalidMetadata":
    "Les métadonnées du fournisseur d’identité n’ont pas pu être lues : collez le document XML complet d’un seul fournisseur d’identité SAML 2.0, avec son URL de connexion (HTTP-Redirect) et son certificat de signature.",
  "sso.notFound": "Cette connexion n’existe pas ou a déjà été supprimée.",
  "sso.forbidden": "Votre rôle ne le permet pas ici, ou l’organisation a atteint sa limite de jetons SCIM actifs : révoquez-en un d’abord.",
  "sso.recentSignIn": "Créer ou révoquer un jeton SCIM demande une connexion récente : reconnectez-vous, puis réessayez.",
  "sso.signInAgain": "Se reconnecter",
  "sso.scimTitle": "Provisionnement SCIM",
  "sso.scimIntro":
    "Votre fournisseur d’identité crée, modifie et supprime les utilisateurs de cette organisation par SCIM 2.0 : donnez-lui l’URL de base ci-dessous et un jeton.",
  "sso.scimBaseUrl": "URL de base SCIM",
  "sso.scimNone": "Cette organisation n’a aucun jeton SCIM.",
  "sso.scimCreated": "Créé le {date} par {creator}",
  "sso.scimLastUsed": "dernière utilisation le {date}",
  "sso.scimNeverUsed": "jamais utilisé",
  "sso.scimCreate": "Créer un jeton SCIM",
  "sso.scimNewToken": "Votre nouveau jeton SCIM",
  "sso.scimCopyHint": "Copiez-le maintenant dans votre fournisseur d’identité : il n’est affiché qu’une seule fois.",
  "sso.scimRevoke": "Révoquer",
  "sso.scimRevoked": "Le jeton SCIM a été révoqué : le fournisseur d’identité ne peut plus l’utiliser.",
  "sso.scimNotFound": "Ce jeton SCIM n’existe pas ou a déjà été révoqué.",
};
