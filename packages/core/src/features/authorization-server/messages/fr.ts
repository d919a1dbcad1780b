/** French texts of the authorization server's pages and notices (keys and placeholders as in `en.ts`). @module features/authorization-server/messages/fr */
import type { AuthorizationServerTexts } from "./keys.js";

export const fr: AuthorizationServerTexts = {
  "oauth.consent.title": "Autoriser l’accès à votre compte ?",
  "oauth.consent.lead": "{client} demande à utiliser votre compte.",
  "oauth.consent.redirect": "Après votre choix, vous revenez sur {host}.",
  "oauth.consent.device": "La demande vient de l’appareil qui affiche le code {code}.",
  "oauth.consent.scopes": "L’application pourra :",
  "oauth.consent.signedInAs": "Vous êtes connecté en tant que {account}.",
  "oauth.consent.allow": "Autoriser",
  "oauth.consent.deny": "Refuser",
  "oauth.consent.secondFactor":
    "Une partie de cet accès exige une connexion avec votre second facteur. Activez la validation en deux étapes dans votre compte si elle est désactivée, puis reconnectez-vous.",
  "oauth.consent.expired": "Cette demande a expiré. Recommencez depuis l’application.",
  "oauth.scope.openid": "Savoir qui vous êtes",
  "oauth.scope.profile": "Voir votre nom et votre photo",
  "oauth.scope.email": "Voir votre adresse e-mail",
  "oauth.scope.offline_access": "Conserver cet accès lorsque vous ne l’utilisez pas",
  "oauth.device.title": "Connecter un appareil",
  "oauth.device.lead": "Saisissez le code affiché par votre appareil.",
  "oauth.device.code": "Code de l’appareil",
  "oauth.device.continue": "Continuer",
  "oauth.device.invalid":
    "Ce code n’est pas valide, a déjà été utilisé ou a expiré. Vérifiez le code sur votre appareil ou recommencez depuis celui-ci.",
  "oauth.device.approved": "C’est fait. Vous pouvez revenir à votre appareil.",
  "oauth.device.denied": "L’appareil n’a pas reçu l’accès. Vous pouvez fermer cette page.",
  "oauth.grants.title": "Applications connectées",
  "oauth.grants.none": "Aucune application n’a accès à votre compte.",
  "oauth.grants.since": "Connectée le {date}",
  "oauth.grants.lastUsed": "dernière utilisation le {date}",
  "oauth.grants.revoke": "Révoquer l’accès",
  "oauth.grants.revoked": "L’application n’a plus accès à votre compte.",
  "oauth.grants.notFound": "Cette application n’est pas connectée à votre compte : son accès a peut-être déjà pris fin.",
  "mail.change.applicationAuthorized":
    "Une application a reçu l’accès à votre compte. Vérifiez vos applications connectées sur la page de votre compte.",
  "mail.change.applicationRevoked":
    "L’accès d’une application à votre compte a été révoqué. Si ce n’était pas vous, vérifiez la page de votre compte et changez votre mot de passe.",
};
