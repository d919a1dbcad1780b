/** English texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/en */
import type { SsoTexts } from "./keys.js";

export const en: SsoTexts = {
  "sso.continue": "Continue with SSO",
  "sso.emailLabel": "Work email",
  "sso.emailHint": "If your organization signs in with its own identity provider, you continue there.",
  "sso.required": "Your organization requires its single sign-on for this address: sign in with your organization's SSO.",
  "sso.failed":
    "Signing in through your organization's identity provider did not complete. Try again, or ask your organization's admin to check the connection.",
};
