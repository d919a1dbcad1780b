/**
 * Keycloak (OpenID Connect). Create a confidential OpenID Connect client with the valid redirect URI
 * `https://<your app>/auth/callback/keycloak`; set `AUTH_KEYCLOAK_ID`, `AUTH_KEYCLOAK_SECRET` and
 * `AUTH_KEYCLOAK_ISSUER` (`https://<host>/realms/<realm>`).
 *
 * @module providers/keycloak
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig, standardClaimsProfile } from "./oauth.js";

/** The claims of a Keycloak ID token with the default `profile` and `email` client scopes. */
export interface KeycloakProfile {
  exp: number;
  iat: number;
  auth_time?: number;
  jti: string;
  iss: string;
  aud: string;
  sub: string;
  typ: "ID";
  azp: string;
  nonce?: string;
  session_state?: string;
  sid?: string;
  at_hash?: string;
  acr?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  picture?: string;
  [claim: string]: unknown;
}

/** Keycloak sign-in; needs `issuer` (`AUTH_KEYCLOAK_ISSUER`). Options are merged over the defaults. */
export default function Keycloak(options?: OAuthUserConfig<KeycloakProfile>): OAuthPresetConfig<KeycloakProfile> {
  return mergeProviderOptions<KeycloakProfile>(
    {
      id: "keycloak",
      name: "Keycloak",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Realms may skip email verification; the `email_verified` claim decides.
      trustEmail: false,
      profile: standardClaimsProfile,
      style: { brandColor: "#4d4d4d", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_KEYCLOAK_ISSUER", required: true },
  docs: "https://www.keycloak.org/docs/latest/server_admin/#_oidc",
};
