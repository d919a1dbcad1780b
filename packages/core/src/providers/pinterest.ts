/**
 * Pinterest (OAuth 2, API v5). Create an app at https://developers.pinterest.com/apps/ with the
 * redirect URI `https://<your app>/auth/callback/pinterest`; set `AUTH_PINTEREST_ID` and
 * `AUTH_PINTEREST_SECRET`. Pinterest returns no email. Endpoints:
 * https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/.
 *
 * @module providers/pinterest
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://api.pinterest.com/v5/user_account` (https://developers.pinterest.com/docs/api/v5/user_account-get/). */
export interface PinterestProfile {
  account_type: "PINNER" | "BUSINESS";
  id?: string;
  username: string;
  profile_image?: string;
  website_url?: string;
  business_name?: string | null;
  about?: string;
  board_count?: number;
  pin_count?: number;
  follower_count?: number;
  following_count?: number;
  monthly_views?: number;
  [field: string]: unknown;
}

/** Pinterest sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Pinterest(options?: OAuthUserConfig<PinterestProfile>): OAuthPresetConfig<PinterestProfile> {
  return mergeProviderOptions<PinterestProfile>(
    {
      id: "pinterest",
      name: "Pinterest",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Pinterest returns no email address.
      trustEmail: false,
      authorization: { url: "https://www.pinterest.com/oauth/", params: { scope: "user_accounts:read" } },
      token: "https://api.pinterest.com/v5/oauth/token",
      userinfo: "https://api.pinterest.com/v5/user_account",
      // Pinterest documents no PKCE for web apps; client credentials go in the Basic header.
      checks: ["state"],
      profile: (profile) => ({
        // Older API versions had no `id`; the username is unique too.
        id: profile.id ?? profile.username,
        name: profile.business_name || profile.username,
        email: null,
        image: profile.profile_image ?? null,
      }),
      style: { brandColor: "#e60023", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id ?? username", name: "business_name ?? username", email: null, image: "profile_image" },
  docs: "https://developers.pinterest.com/docs/api/v5/user_account-get/",
};
