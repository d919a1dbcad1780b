/**
 * WordPress.com (OAuth 2). Create an application at https://developer.wordpress.com/apps/ with the
 * redirect URL `https://<your app>/auth/callback/wordpress`; set `AUTH_WORDPRESS_ID` and
 * `AUTH_WORDPRESS_SECRET`. The `auth` scope grants the `/me` endpoint only.
 *
 * Docs: https://developer.wordpress.com/docs/oauth2/ and
 * https://developer.wordpress.com/docs/api/1.1/get/me/
 *
 * @module providers/wordpress
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /rest/v1/me` (https://developer.wordpress.com/docs/api/1.1/get/me/). */
export interface WordPressProfile {
  ID: number;
  display_name: string;
  username: string;
  email: string;
  email_verified: boolean;
  primary_blog?: number;
  language?: string;
  avatar_URL?: string;
  profile_URL?: string;
  verified?: boolean;
  [field: string]: unknown;
}

/** WordPress.com sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function WordPress(options?: OAuthUserConfig<WordPressProfile>): OAuthPresetConfig<WordPressProfile> {
  return mergeProviderOptions<WordPressProfile>(
    {
      id: "wordpress",
      name: "WordPress.com",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): `/me` says per account whether the email is verified (`email_verified`).
      trustEmail: (profile) => profile.email_verified === true,
      authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
      token: "https://public-api.wordpress.com/oauth2/token",
      userinfo: "https://public-api.wordpress.com/rest/v1/me",
      // WordPress.com reads client_id and client_secret from the form body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({
        id: String(profile.ID),
        name: profile.display_name || profile.username,
        email: profile.email ?? null,
        image: profile.avatar_URL ?? null,
      }),
      style: { brandColor: "#3499cd", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "ID", name: "display_name ?? username", email: "email", image: "avatar_URL" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://developer.wordpress.com/docs/oauth2/",
};
