/**
 * Instagram, "Instagram API with Instagram Login" (OAuth 2, professional accounts). Add the product
 * to a Meta app with the redirect URL `https://<your app>/auth/callback/instagram`; set
 * `AUTH_INSTAGRAM_ID` (Instagram app ID) and `AUTH_INSTAGRAM_SECRET`. Instagram returns no email.
 * Endpoints: https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login.
 *
 * @module providers/instagram
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://graph.instagram.com/me?fields=…` (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user). */
export interface InstagramProfile {
  /** The app-scoped user id. */
  id: string;
  /** The Instagram professional account id. */
  user_id?: string;
  username: string;
  name?: string;
  account_type?: string;
  profile_picture_url?: string;
  [field: string]: unknown;
}

/** Instagram sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Instagram(options?: OAuthUserConfig<InstagramProfile>): OAuthPresetConfig<InstagramProfile> {
  return mergeProviderOptions<InstagramProfile>(
    {
      id: "instagram",
      name: "Instagram",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Instagram returns no email address.
      trustEmail: false,
      authorization: { url: "https://www.instagram.com/oauth/authorize", params: { scope: "instagram_business_basic" } },
      token: "https://api.instagram.com/oauth/access_token",
      userinfo: {
        url: "https://graph.instagram.com/me",
        params: { fields: "id,user_id,username,name,account_type,profile_picture_url" },
      },
      // Credentials in the body; the token comes as `{ data: [ { access_token, user_id, permissions } ] }` without token_type.
      client: { token_endpoint_auth_method: "client_secret_post" },
      tokenResponseQuirks: ["data-envelope", "token-type-missing"],
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name || profile.username,
        email: null,
        image: profile.profile_picture_url ?? null,
      }),
      style: { brandColor: "#e1306c", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "name ?? username", email: null, image: "profile_picture_url" },
  docs: "https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login",
};
