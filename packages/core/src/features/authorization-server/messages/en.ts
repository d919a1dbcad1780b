/** English texts of the authorization server's pages and notices (keys and placeholders as in `en.ts`). @module features/authorization-server/messages/en */
import type { AuthorizationServerTexts } from "./keys.js";

export const en: AuthorizationServerTexts = {
  "oauth.consent.title": "Allow access to your account?",
  "oauth.consent.lead": "{client} asks to use your account.",
  "oauth.consent.redirect": "After you decide, you go back to {host}.",
  "oauth.consent.device": "The request comes from the device that shows the code {code}.",
  "oauth.consent.scopes": "It will be able to:",
  "oauth.consent.signedInAs": "You are signed in as {account}.",
  "oauth.consent.allow": "Allow",
  "oauth.consent.deny": "Deny",
  "oauth.consent.secondFactor":
    "Some of this access needs a sign-in with your second factor. Turn on two-step verification in your account if it is off, then sign in again.",
  "oauth.consent.expired": "This request has expired. Start again from the application.",
  "oauth.scope.openid": "Know who you are",
  "oauth.scope.profile": "See your name and picture",
  "oauth.scope.email": "See your email address",
  "oauth.scope.offline_access": "Keep this access when you are not using it",
  "oauth.device.title": "Connect a device",
  "oauth.device.lead": "Type the code your device shows.",
  "oauth.device.code": "Code",
  "oauth.device.continue": "Continue",
  "oauth.device.invalid": "This code is not valid, was used, or has expired. Check the code on your device, or start again there.",
  "oauth.device.approved": "Done. You can go back to your device.",
  "oauth.device.denied": "The device was not given access. You can close this page.",
  "oauth.grants.title": "Connected applications",
  "oauth.grants.none": "No application has access to your account.",
  "oauth.grants.since": "Connected {date}",
  "oauth.grants.lastUsed": "last used {date}",
  "oauth.grants.revoke": "Revoke access",
  "oauth.grants.revoked": "The application no longer has access to your account.",
  "oauth.grants.notFound": "That application is not connected to your account: its access may have ended already.",
  "mail.change.applicationAuthorized":
    "An application was given access to your account. Check your connected applications on your account page.",
  "mail.change.applicationRevoked":
    "An application’s access to your account was revoked. If that was not you, check your account page and change your password.",
};
