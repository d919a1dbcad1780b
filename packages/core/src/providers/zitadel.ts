/**
 * ZITADEL (OpenID Connect). Create a "Web" application (authentication method "Basic" or "Post", or
 * "PKCE" with `client: { token_endpoint_auth_method: "none" }`) with the redirect URI
 * `https://<your app>/auth/callback/zitadel`; set `AUTH_ZITADEL_ID`, `AUTH_ZITADEL_SECRET` and
 * `AUTH_ZITADEL_ISSUER` (`https://<instance>.zitadel.cloud` or your domain). Enable "User Info inside
 * ID Token" in the application's token settings, or the ID token carries no name and email.
 *
 * @module providers/zitadel
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig, standardClaimsProfile } from "./oauth.js";

/** The claims of a ZITADEL ID token with user info (https://zitadel.com/docs/apis/openidoauth/claims). */
export interface ZitadelProfile {
  amr?: string[];
  at_hash?: string;
  aud: string | string[];
  auth_time?: number;
  azp?: string;
  client_id?: string;
  exp: number;
  iat: number;
  iss: string;
  sub: string;
  sid?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  nickname?: string;
  preferred_username?: string;
  locale?: string | null;
  updated_at?: number;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  [claim: string]: unknown;
}

/** ZITADEL sign-in; needs `issuer` (`AUTH_ZITADEL_ISSUER`). Options are merged over the defaults. */
export default function Zitadel(options?: OAuthUserConfig<ZitadelProfile>): OAuthPresetConfig<ZitadelProfile> {
  return mergeProviderOptions<ZitadelProfile>(
    {
      id: "zitadel",
      name: "ZITADEL",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Zitadel sends `email_verified`; that claim decides.
      trustEmail: false,
      profile: standardClaimsProfile,
      style: { brandColor: "#3b4ad9", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_ZITADEL_ISSUER", required: true },
  docs: "https://zitadel.com/docs/apis/openidoauth/claims",
};
