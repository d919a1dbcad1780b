/**
 * authentik (OpenID Connect). Create an "OAuth2/OpenID Provider" and an application for it with the
 * redirect URI `https://<your app>/auth/callback/authentik`; set `AUTH_AUTHENTIK_ID`,
 * `AUTH_AUTHENTIK_SECRET` and `AUTH_AUTHENTIK_ISSUER` (`https://<host>/application/o/<application slug>/`,
 * with the trailing slash).
 *
 * @module providers/authentik
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of an authentik ID token with the default scope mappings. */
export interface AuthentikProfile {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time?: number;
  acr?: string;
  amr?: string[];
  nonce?: string;
  sid?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  nickname?: string;
  picture?: string;
  groups?: string[];
  [claim: string]: unknown;
}

/** authentik sign-in; needs `issuer` (`AUTH_AUTHENTIK_ISSUER`). Options are merged over the defaults. */
export default function Authentik(options?: OAuthUserConfig<AuthentikProfile>): OAuthPresetConfig<AuthentikProfile> {
  return mergeProviderOptions<AuthentikProfile>(
    {
      id: "authentik",
      name: "authentik",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Self-hosted; admins may set emails unchecked. The `email_verified` claim decides (authentik often sends false).
      trustEmail: false,
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name || profile.preferred_username || null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#fd4b2d", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_AUTHENTIK_ISSUER", required: true },
  docs: "https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/",
};
