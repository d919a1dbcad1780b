/**
 * Descope (OpenID Connect). In the Descope console, use the project's OIDC application (Applications → OIDC default application)
 * with the redirect URL `https://<your app>/auth/callback/descope`; set `AUTH_DESCOPE_ID` (the project id),
 * `AUTH_DESCOPE_SECRET` (an access key) and `AUTH_DESCOPE_ISSUER` (`https://api.descope.com/<project id>`).
 *
 * Docs: https://docs.descope.com/sso-integrations/oidc
 *
 * @module providers/descope
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Descope ID token with the `profile` and `email` scopes (https://docs.descope.com/management/user-management/users). */
export interface DescopeProfile extends IdTokenClaims {
  phone_number?: string;
  phone_number_verified?: boolean;
}

/** Descope sign-in; needs `issuer` (`AUTH_DESCOPE_ISSUER`). Options are merged over the defaults. */
export default function Descope(options?: OAuthUserConfig<DescopeProfile>): OAuthPresetConfig<DescopeProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): Descope sends `email_verified`; that claim decides.
  return issuerOidcPreset<DescopeProfile>(
    {
      id: "descope",
      name: "Descope",
      style: { brandColor: "#1c1c23", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_DESCOPE_ISSUER", required: true },
  docs: "https://docs.descope.com/sso-integrations/oidc",
};
