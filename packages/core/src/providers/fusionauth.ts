/**
 * FusionAuth (OpenID Connect). Create an application in FusionAuth with the authorized redirect URL
 * `https://<your app>/auth/callback/fusionauth`; set `AUTH_FUSIONAUTH_ID`, `AUTH_FUSIONAUTH_SECRET` and
 * `AUTH_FUSIONAUTH_ISSUER` (the tenant's issuer, e.g. `https://auth.example.com`, self-hosted or FusionAuth Cloud).
 * With several tenants, pass `authorization: { params: { tenantId } }`.
 *
 * Docs: https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 *
 * @module providers/fusionauth
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a FusionAuth ID token with the `profile` and `email` scopes (https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token). */
export interface FusionAuthProfile extends IdTokenClaims {
  applicationId?: string;
  roles?: string[];
  authenticationType?: string;
}

/** FusionAuth sign-in; needs `issuer` (`AUTH_FUSIONAUTH_ISSUER`). Options are merged over the defaults. */
export default function FusionAuth(options?: OAuthUserConfig<FusionAuthProfile>): OAuthPresetConfig<FusionAuthProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): FusionAuth sends `email_verified`; that claim decides.
  return issuerOidcPreset<FusionAuthProfile>(
    {
      id: "fusionauth",
      name: "FusionAuth",
      style: { brandColor: "#f58320", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_FUSIONAUTH_ISSUER", required: true },
  docs: "https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints",
};
