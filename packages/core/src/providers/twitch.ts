/**
 * Twitch (OpenID Connect, issuer `https://id.twitch.tv/oauth2`). Register an application at
 * https://dev.twitch.tv/console/apps with the OAuth redirect URL `https://<your app>/auth/callback/twitch`;
 * set `AUTH_TWITCH_ID` and `AUTH_TWITCH_SECRET`. The email, picture and login name are requested as ID
 * token claims; Twitch's token responses (`scope` as an array) are conformed by the OAuth layer.
 *
 * @module providers/twitch
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Twitch ID token with the requested `email`, `picture` and `preferred_username`. */
export interface TwitchProfile {
  aud: string;
  exp: number;
  iat: number;
  iss: "https://id.twitch.tv/oauth2";
  sub: string;
  azp?: string;
  nonce?: string;
  preferred_username: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  updated_at?: string;
  [claim: string]: unknown;
}

/** Twitch sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Twitch(options?: OAuthUserConfig<TwitchProfile>): OAuthPresetConfig<TwitchProfile> {
  return mergeProviderOptions<TwitchProfile>(
    {
      id: "twitch",
      name: "Twitch",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Twitch sends `email_verified` when asked for it (the preset asks); that claim decides.
      trustEmail: false,
      issuer: "https://id.twitch.tv/oauth2",
      authorization: {
        params: {
          scope: "openid user:read:email",
          claims: { id_token: { email: null, email_verified: null, picture: null, preferred_username: null } },
        },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.preferred_username,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#9146ff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/",
};
