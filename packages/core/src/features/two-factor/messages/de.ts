/** German texts of the second factor's pages, forms and mails (keys and placeholders as in `en.ts`). @module features/two-factor/messages/de */
import type { TwoFactorTexts } from "./keys.js";

export const de: TwoFactorTexts = {
  "signinError.twoFactorExpired":
    "Der zweite Schritt Ihrer Anmeldung kam zu spät oder begann in einem anderen Browser. Melden Sie sich erneut an.",
  "twoFactor.title": "Bestätigen Sie, dass Sie es sind",
  "twoFactor.lead": "Ihr Konto hat eine Bestätigung in zwei Schritten. Schließen Sie die Anmeldung mit Ihrem zweiten Faktor ab.",
  "twoFactor.codeLabel": "Code aus Ihrer Authenticator-App",
  "twoFactor.codeHint": "6 Ziffern. Telefon verloren? Geben Sie stattdessen einen Ihrer Wiederherstellungscodes ein.",
  "twoFactor.continue": "Weiter",
  "twoFactor.usePasskey": "Passkey verwenden",
  "twoFactor.cancel": "Abbrechen und neu anmelden",
  "twoFactorError.incorrect":
    "Dieser Code hat nicht funktioniert. Prüfen Sie Ihre Authenticator-App oder nutzen Sie einen unbenutzten Wiederherstellungscode.",
  "twoFactorError.rateLimited": "Zu viele Codes versucht. Bitte warten Sie einige Minuten und versuchen Sie es erneut.",
  "twoFactorError.passkeyFailed": "Der Passkey konnte nicht verwendet werden. Versuchen Sie es erneut oder nutzen Sie einen Code.",
  "twoFactorError.passkeyExpired": "Die Passkey-Anfrage ist abgelaufen. Versuchen Sie es erneut.",
  "twoFactorError.default": "Das hat nicht funktioniert. Bitte versuchen Sie es erneut.",
  "mail.change.twoFactorEnabled":
    "Die Bestätigung in zwei Schritten wurde mit einer Authenticator-App eingeschaltet, und neue Wiederherstellungscodes wurden erstellt.",
  "mail.change.twoFactorDisabled":
    "Die Bestätigung in zwei Schritten wurde ausgeschaltet: Ihr Konto fragt nicht mehr nach einem Code Ihrer Authenticator-App.",
  "mail.change.recoveryCodeUsed":
    "Ein Wiederherstellungscode wurde verwendet, um sich bei Ihrem Konto anzumelden. Jeder Code funktioniert einmal: Zählen Sie, wie viele Ihnen bleiben.",
  "mail.change.recoveryCodesCreated": "Für Ihr Konto wurden neue Wiederherstellungscodes erstellt: Die früheren funktionieren nicht mehr.",
  "account.twoFactorSection": "Zweistufige Anmeldung",
  "account.twoFactorOff": "Aus: Die Anmeldung hat einen Schritt.",
  "account.twoFactorOn": "An: Bei der Anmeldung wird ein Code aus Ihrer Authenticator-App abgefragt.",
  "account.twoFactorEnable": "Mit einer Authenticator-App einschalten",
  "account.twoFactorScan":
    "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App oder geben Sie den Schlüssel dort ein. Geben Sie dann den 6-stelligen Code ein, den die App anzeigt.",
  "account.twoFactorQrAlt": "QR-Code zum Scannen mit Ihrer Authenticator-App",
  "account.twoFactorKey": "Schlüssel:",
  "account.twoFactorCode": "Code aus Ihrer Authenticator-App",
  "account.twoFactorConfirm": "Einschalten",
  "account.recoveryCodesLead":
    "Ihre Wiederherstellungscodes: Jeder meldet Sie einmal an, wenn Sie Ihr Telefon nicht haben. Bewahren Sie sie jetzt sicher auf. Sie werden nur dieses eine Mal angezeigt.",
  "account.recoveryCodesLeft": "Noch {count} Wiederherstellungscodes.",
  "account.newRecoveryCodes": "Neue Wiederherstellungscodes erstellen",
  "account.twoFactorDisableCode": "Code aus Ihrer App oder ein Wiederherstellungscode",
  "account.twoFactorDisable": "Ausschalten",
  "account.done.twoFactorOn": "Die zweistufige Anmeldung ist eingeschaltet.",
  "account.done.twoFactorOff": "Die zweistufige Anmeldung ist ausgeschaltet.",
  "account.done.recoveryCodesNew":
    "Neue Wiederherstellungscodes wurden erstellt: Die früheren funktionieren nicht mehr. Bewahren Sie diese jetzt auf.",
  "accountError.twoFactorAlreadyOn": "Die zweistufige Anmeldung ist bereits eingeschaltet.",
  "accountError.twoFactorNotOn": "Die zweistufige Anmeldung ist nicht eingeschaltet: Schalten Sie sie zuerst ein.",
  "accountError.incorrectCode":
    "Dieser Code hat nicht funktioniert. Geben Sie den Code ein, den Ihre App jetzt anzeigt, oder einen unbenutzten Wiederherstellungscode.",
};
