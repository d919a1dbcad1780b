/** English texts of the second factor's pages, forms and mails (keys and placeholders as in `en.ts`). @module features/two-factor/messages/en */
import type { TwoFactorTexts } from "./keys.js";

export const en: TwoFactorTexts = {
  "signinError.twoFactorExpired": "Your sign-in waited too long for its second step, or began in another browser. Sign in again.",
  "twoFactor.title": "Confirm it is you",
  "twoFactor.lead": "Your account has two-step verification. Finish signing in with your second factor.",
  "twoFactor.codeLabel": "Code from your authenticator app",
  "twoFactor.codeHint": "6 digits. Lost your phone? Type one of your recovery codes instead.",
  "twoFactor.continue": "Continue",
  "twoFactor.usePasskey": "Use a passkey",
  "twoFactor.cancel": "Cancel and sign in again",
  "twoFactorError.incorrect": "That code did not work. Check your authenticator app, or use an unused recovery code.",
  "twoFactorError.rateLimited": "Too many codes tried. Please wait a few minutes and try again.",
  "twoFactorError.passkeyFailed": "The passkey could not be used. Try again, or use a code.",
  "twoFactorError.passkeyExpired": "The passkey request expired. Try again.",
  "twoFactorError.default": "That did not work. Please try again.",
  "mail.change.twoFactorEnabled": "Two-step verification was turned on with an authenticator app, and new recovery codes were made.",
  "mail.change.twoFactorDisabled":
    "Two-step verification was turned off: your account no longer asks for a code from your authenticator app.",
  "mail.change.recoveryCodeUsed":
    "A recovery code was used to sign in to your account. Each code works once: count how many you have left.",
  "mail.change.recoveryCodesCreated": "New recovery codes were made for your account: the earlier ones no longer work.",
  "account.twoFactorSection": "Two-step verification",
  "account.twoFactorOff": "Off: signing in takes one step.",
  "account.twoFactorOn": "On: signing in asks for a code from your authenticator app.",
  "account.twoFactorEnable": "Turn on with an authenticator app",
  "account.twoFactorScan":
    "Scan this QR code with your authenticator app, or type the key into it. Then type the 6-digit code the app shows.",
  "account.twoFactorQrAlt": "QR code to scan with your authenticator app",
  "account.twoFactorKey": "Key:",
  "account.twoFactorCode": "Code from your authenticator app",
  "account.twoFactorConfirm": "Turn on",
  "account.recoveryCodesLead":
    "Your recovery codes: each one signs in once when you do not have your phone. Store them somewhere safe now. They are shown only this once.",
  "account.recoveryCodesLeft": "{count} recovery codes left.",
  "account.newRecoveryCodes": "Make new recovery codes",
  "account.twoFactorDisableCode": "Code from your app, or a recovery code",
  "account.twoFactorDisable": "Turn off",
  "account.done.twoFactorOn": "Two-step verification is on.",
  "account.done.twoFactorOff": "Two-step verification is off.",
  "account.done.recoveryCodesNew": "New recovery codes were made: the earlier ones no longer work. Store these now.",
  "accountError.twoFactorAlreadyOn": "Two-step verification is on already.",
  "accountError.twoFactorNotOn": "Two-step verification is not on: turn it on first.",
  "accountError.incorrectCode": "That code did not work. Type the code your app shows now, or an unused recovery code.",
};
