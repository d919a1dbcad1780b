/**
 * X (Twitter) with OAuth 2 (PKCE and state). In the X developer portal, enable OAuth 2.0 for the app
 * ("Web App", confidential client) with the callback URI `https://<your app>/auth/callback/twitter`;
 * set `AUTH_TWITTER_ID` and `AUTH_TWITTER_SECRET` (the OAuth 2.0 client id and secret). X returns no
 * email unless the app is approved for it and asks for `users.email`.
 *
 * @module providers/twitter
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /2/users/me?user.fields=profile_image_url` (https://docs.x.com/x-api/users/user-lookup-me). */
export interface TwitterProfile {
  data: {
    id: string;
    name: string;
    username: string;
    profile_image_url?: string;
    /** Only with the `users.email` scope and the `confirmed_email` user field. */
    confirmed_email?: string;
    description?: string;
    verified?: boolean;
    created_at?: string;
    protected?: boolean;
    location?: string;
    url?: string;
  };
  [field: string]: unknown;
}

/** X (Twitter) sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Twitter(options?: OAuthUserConfig<TwitterProfile>): OAuthPresetConfig<TwitterProfile> {
  return mergeProviderOptions<TwitterProfile>(
    {
      id: "twitter",
      name: "X",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The preset takes only `confirmed_email`, which X returns for confirmed addresses only.
      trustEmail: true,
      authorization: { url: "https://x.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" } },
      token: "https://api.x.com/2/oauth2/token",
      userinfo: { url: "https://api.x.com/2/users/me", params: { "user.fields": "profile_image_url" } },
      checks: ["pkce", "state"],
      profile: ({ data }) => ({
        id: data.id,
        name: data.name,
        email: data.confirmed_email ?? null,
        image: data.profile_image_url ?? null,
      }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "data.id", name: "data.name", email: "data.confirmed_email", image: "data.profile_image_url" },
  docs: "https://docs.x.com/x-api/users/user-lookup-me",
};
