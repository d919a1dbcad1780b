/**
 * Reddit (OAuth 2). Create a "web app" at https://www.reddit.com/prefs/apps with the redirect URI
 * `https://<your app>/auth/callback/reddit`; set `AUTH_REDDIT_ID` and `AUTH_REDDIT_SECRET`. Reddit gives
 * no email. For a refresh token, pass `authorization: { params: { duration: "permanent" } }`.
 *
 * @module providers/reddit
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /api/v1/me` with the `identity` scope (https://www.reddit.com/dev/api#GET_api_v1_me). */
export interface RedditProfile {
  id: string;
  name: string;
  /** HTML-escaped URL (`&amp;`). */
  icon_img?: string;
  snoovatar_img?: string;
  created_utc?: number;
  has_verified_email?: boolean;
  verified?: boolean;
  total_karma?: number;
  over_18?: boolean;
  [field: string]: unknown;
}

/** `icon_img` is HTML-escaped in Reddit's JSON. */
function unescapeAmpersands(url: string | undefined): string | null {
  return url ? url.replace(/&amp;/g, "&") : null;
}

/** Reddit sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Reddit(options?: OAuthUserConfig<RedditProfile>): OAuthPresetConfig<RedditProfile> {
  return mergeProviderOptions<RedditProfile>(
    {
      id: "reddit",
      name: "Reddit",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Reddit returns no email address.
      trustEmail: false,
      authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity" } },
      token: "https://www.reddit.com/api/v1/access_token",
      userinfo: "https://oauth.reddit.com/api/v1/me",
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name,
        email: null,
        image: unescapeAmpersands(profile.snoovatar_img || profile.icon_img),
      }),
      style: { brandColor: "#ff4500", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "name", email: null, image: "snoovatar_img ?? icon_img" },
  docs: "https://www.reddit.com/dev/api#GET_api_v1_me",
};
