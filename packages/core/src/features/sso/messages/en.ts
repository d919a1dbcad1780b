/** English texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/en */
import type { SsoTexts } from "./keys.js";

export const en: SsoTexts = {
  "sso.continue": "Continue with SSO",
  "sso.emailLabel": "Work email",
  "sso.emailHint": "If your organization signs in with its own identity provider, you continue there.",
  "sso.required": "Your organization requires its single sign-on for this address: sign in with your organization's SSO.",
  "sso.failed":
    "Signing in through your organization's identity provider did not complete. Try again, or ask your organization's admin to check the connection.",
  "sso.title": "Single sign-on",
  "sso.none": "This organization has no SSO connection yet.",
  "sso.created": "The SSO connection was added.",
  "sso.invalid": "This connection could not be saved: check its fields (an https issuer, a client id and secret) and your role.",
  "sso.issuer": "Issuer",
  "sso.idpEntityId": "Identity provider entity ID",
  "sso.redirectUri": "Redirect URI to register at your identity provider",
  "sso.spCertificate": "Service provider certificate",
  "sso.spEntityId": "Service provider entity ID (and metadata URL)",
  "sso.acsUrl": "Assertion consumer service (ACS) URL",
  "sso.requiredBadge": "SSO only",
  "sso.requiredLabel": "Require SSO for addresses at this organization's verified domains",
  "sso.addOidc": "Add an OIDC connection",
  "sso.name": "Name",
  "sso.clientId": "Client ID",
  "sso.clientSecret": "Client secret",
};
