/**
 * Okta (OpenID Connect). Create an OIDC "Web Application" with the sign-in redirect URI
 * `https://<your app>/auth/callback/okta`; set `AUTH_OKTA_ID`, `AUTH_OKTA_SECRET` and
 * `AUTH_OKTA_ISSUER` (`https://<org>.okta.com/oauth2/default` for the default authorization server, or
 * `https://<org>.okta.com` for the org authorization server).
 *
 * @module providers/okta
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig, standardClaimsProfile } from "./oauth.js";

/** The claims of an Okta ID token (https://developer.okta.com/docs/reference/api/oidc/#id-token-claims). */
export interface OktaProfile {
  iss: string;
  ver: number;
  sub: string;
  aud: string;
  iat: number;
  exp: number;
  jti?: string;
  amr?: string[];
  idp?: string;
  nonce?: string;
  auth_time?: number;
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  zoneinfo?: string;
  locale?: string;
  picture?: string;
  [claim: string]: unknown;
}

/** Okta sign-in; needs `issuer` (`AUTH_OKTA_ISSUER`). Options are merged over the defaults. */
export default function Okta(options?: OAuthUserConfig<OktaProfile>): OAuthPresetConfig<OktaProfile> {
  return mergeProviderOptions<OktaProfile>(
    {
      id: "okta",
      name: "Okta",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Okta orgs may hold unverified addresses; the `email_verified` claim decides.
      trustEmail: false,
      profile: standardClaimsProfile,
      style: { brandColor: "#00297a", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_OKTA_ISSUER", required: true },
  docs: "https://developer.okta.com/docs/reference/api/oidc/#id-token-claims",
};
