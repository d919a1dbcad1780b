/**
 * Google (OpenID Connect, issuer `https://accounts.google.com`). Create an OAuth client ID ("Web
 * application") in the Google Cloud console with the redirect URI `https://<your app>/auth/callback/google`;
 * set `AUTH_GOOGLE_ID` and `AUTH_GOOGLE_SECRET`. For a refresh token, pass
 * `authorization: { params: { access_type: "offline", prompt: "consent" } }`.
 *
 * @module providers/google
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Google ID token (https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload). */
export interface GoogleProfile {
  iss: string;
  azp: string;
  aud: string;
  sub: string;
  email: string;
  email_verified: boolean;
  at_hash?: string;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  /** The Google Workspace domain of the user, if any. */
  hd?: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/** Google sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Google(options?: OAuthUserConfig<GoogleProfile>): OAuthPresetConfig<GoogleProfile> {
  return mergeProviderOptions<GoogleProfile>(
    {
      id: "google",
      name: "Google",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Google sends `email_verified`; that claim decides (also for Workspace addresses).
      trustEmail: false,
      issuer: "https://accounts.google.com",
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email, image: profile.picture ?? null }),
      style: { brandColor: "#1a73e8", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload",
};
