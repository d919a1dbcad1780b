/**
 * MicrosoftEntraID with an `email_verified: true` claim in its ID token (a tenant admin can add it as an
 * optional claim, and guests bring it from their home tenant): the email is still not proof, so it never
 * reaches the session nor the user row. The rest is the recorded token of `microsoft-entra-id.ts`.
 */
import { recordedClaims } from "../preset-harness.js";
import entra from "./microsoft-entra-id.js";

export default {
  ...entra,
  title: "microsoft-entra-id with email_verified: true",
  oidc: { ...entra.oidc, claims: { ...recordedClaims("microsoft-entra-id"), email_verified: true } },
  expected: { ...entra.expected, emailTrusted: false },
};
