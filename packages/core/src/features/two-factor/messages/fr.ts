/** French texts of the second factor's pages, forms and mails (keys and placeholders as in `en.ts`). @module features/two-factor/messages/fr */
import type { TwoFactorTexts } from "./keys.js";

export const fr: TwoFactorTexts = {
  "signinError.twoFactorExpired":
    "La deuxième étape de votre connexion a trop tardé ou a commencé dans un autre navigateur. Reconnectez-vous.",
  "twoFactor.title": "Confirmez que c’est bien vous",
  "twoFactor.lead": "Votre compte utilise la validation en deux étapes. Terminez la connexion avec votre second facteur.",
  "twoFactor.codeLabel": "Code de votre application d’authentification",
  "twoFactor.codeHint": "6 chiffres. Téléphone perdu ? Saisissez plutôt l’un de vos codes de récupération.",
  "twoFactor.continue": "Continuer",
  "twoFactor.usePasskey": "Utiliser une clé d’accès",
  "twoFactor.cancel": "Annuler et se reconnecter",
  "twoFactorError.incorrect":
    "Ce code n’a pas fonctionné. Vérifiez votre application d’authentification ou utilisez un code de récupération inutilisé.",
  "twoFactorError.rateLimited": "Trop de codes essayés. Attendez quelques minutes et réessayez.",
  "twoFactorError.passkeyFailed": "La clé d’accès n’a pas pu être utilisée. Réessayez ou utilisez un code.",
  "twoFactorError.passkeyExpired": "La demande de clé d’accès a expiré. Réessayez.",
  "twoFactorError.default": "Cela n’a pas fonctionné. Veuillez réessayer.",
  "mail.change.twoFactorEnabled":
    "La validation en deux étapes a été activée avec une application d’authentification, et de nouveaux codes de récupération ont été créés.",
  "mail.change.twoFactorDisabled":
    "La validation en deux étapes a été désactivée : votre compte ne demande plus de code de votre application d’authentification.",
  "mail.change.recoveryCodeUsed":
    "Un code de récupération a été utilisé pour se connecter à votre compte. Chaque code ne fonctionne qu’une fois : comptez ceux qu’il vous reste.",
  "mail.change.recoveryCodesCreated":
    "De nouveaux codes de récupération ont été créés pour votre compte : les précédents ne fonctionnent plus.",
  "account.twoFactorSection": "Validation en deux étapes",
  "account.twoFactorOff": "Désactivée : la connexion se fait en une étape.",
  "account.twoFactorOn": "Activée : la connexion demande un code de votre application d’authentification.",
  "account.twoFactorEnable": "Activer avec une application d’authentification",
  "account.twoFactorScan":
    "Scannez ce QR code avec votre application d’authentification, ou saisissez-y la clé. Puis saisissez le code à 6 chiffres qu’elle affiche.",
  "account.twoFactorQrAlt": "QR code à scanner avec votre application d’authentification",
  "account.twoFactorKey": "Clé :",
  "account.twoFactorCode": "Code de votre application d’authentification",
  "account.twoFactorConfirm": "Activer",
  "account.recoveryCodesLead":
    "Vos codes de récupération : chacun permet de se connecter une fois sans votre téléphone. Conservez-les en lieu sûr dès maintenant. Ils ne sont affichés que cette fois.",
  "account.recoveryCodesLeft": "Il reste {count} codes de récupération.",
  "account.newRecoveryCodes": "Créer de nouveaux codes de récupération",
  "account.twoFactorDisableCode": "Code de votre application, ou un code de récupération",
  "account.twoFactorDisable": "Désactiver",
  "account.done.twoFactorOn": "La validation en deux étapes est activée.",
  "account.done.twoFactorOff": "La validation en deux étapes est désactivée.",
  "account.done.recoveryCodesNew":
    "De nouveaux codes de récupération ont été créés : les précédents ne fonctionnent plus. Conservez ceux-ci maintenant.",
  "accountError.twoFactorAlreadyOn": "La validation en deux étapes est déjà activée.",
  "accountError.twoFactorNotOn": "La validation en deux étapes n’est pas activée : activez-la d’abord.",
  "accountError.incorrectCode":
    "Ce code n’a pas fonctionné. Saisissez le code que votre application affiche maintenant, ou un code de récupération inutilisé.",
};
