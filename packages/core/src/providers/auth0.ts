/**
 * Auth0 (OpenID Connect). Create a "Regular Web Application" with the callback URL
 * `https://<your app>/auth/callback/auth0`; set `AUTH_AUTH0_ID`, `AUTH_AUTH0_SECRET` and
 * `AUTH_AUTH0_ISSUER` (your tenant's domain, `https://<tenant>.<region>.auth0.com/`, or a custom domain).
 *
 * @module providers/auth0
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of an Auth0 ID token (https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure). */
export interface Auth0Profile {
  sub: string;
  nickname?: string;
  name?: string;
  picture?: string;
  updated_at?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  locale?: string;
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  sid?: string;
  [claim: string]: unknown;
}

/** Auth0 sign-in; needs `issuer` (`AUTH_AUTH0_ISSUER`). Options are merged over the defaults. */
export default function Auth0(options?: OAuthUserConfig<Auth0Profile>): OAuthPresetConfig<Auth0Profile> {
  return mergeProviderOptions<Auth0Profile>(
    {
      id: "auth0",
      name: "Auth0",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Auth0 tenants can let users sign up with unverified addresses; the `email_verified` claim decides.
      trustEmail: false,
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#eb5424", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? nickname", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_AUTH0_ISSUER", required: true },
  docs: "https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure",
};
