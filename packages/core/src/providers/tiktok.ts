/**
 * TikTok (Login Kit for Web, OAuth 2). Register an app at https://developers.tiktok.com with Login Kit
 * and the redirect URI `https://<your app>/auth/callback/tiktok`; set `AUTH_TIKTOK_ID` (the client key)
 * and `AUTH_TIKTOK_SECRET`. TikTok calls the client id `client_key` (in the authorization request and
 * in the token request's form body) and returns no email address.
 *
 * Docs: https://developers.tiktok.com/doc/login-kit-web and
 * https://developers.tiktok.com/doc/oauth-user-access-token-management
 *
 * @module providers/tiktok
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /v2/user/info/` (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info). */
export interface TikTokProfile {
  data: {
    user: {
      /** The user's id within this app. */
      open_id: string;
      /** The user's id across the developer's apps. */
      union_id?: string;
      avatar_url?: string;
      avatar_url_100?: string;
      avatar_large_url?: string;
      display_name?: string;
      username?: string;
      [field: string]: unknown;
    };
  };
  error: { code: string; message: string; log_id: string };
  [field: string]: unknown;
}

/** TikTok sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function TikTok(options?: OAuthUserConfig<TikTokProfile>): OAuthPresetConfig<TikTokProfile> {
  return mergeProviderOptions<TikTokProfile>(
    {
      id: "tiktok",
      name: "TikTok",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): TikTok returns no email.
      trustEmail: false,
      authorization: { url: "https://www.tiktok.com/v2/auth/authorize/", params: { scope: "user.info.basic" } },
      token: "https://open.tiktokapis.com/v2/oauth/token/",
      userinfo: {
        url: "https://open.tiktokapis.com/v2/user/info/",
        params: { fields: "open_id,union_id,avatar_url,display_name,username" },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      requestQuirks: { clientIdParam: "client_key" },
      // PKCE is for TikTok's desktop and mobile apps; the web flow is protected by state.
      checks: ["state"],
      profile: ({ data }) => ({
        id: data.user.open_id,
        name: data.user.display_name ?? data.user.username ?? null,
        email: null,
        image: data.user.avatar_url ?? null,
      }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "data.user.open_id", name: "data.user.display_name", email: null, image: "data.user.avatar_url" },
  docs: "https://developers.tiktok.com/doc/login-kit-web",
};
