/**
 * Facebook Login (OAuth 2). Add "Facebook Login" to an app at https://developers.facebook.com with the
 * valid OAuth redirect URI `https://<your app>/auth/callback/facebook`; set `AUTH_FACEBOOK_ID` (the app
 * id) and `AUTH_FACEBOOK_SECRET` (the app secret). Accounts registered with a phone number have no email.
 *
 * @module providers/facebook
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /me?fields=id,name,email,picture` of the Graph API (https://developers.facebook.com/docs/graph-api/reference/user/). */
export interface FacebookProfile {
  id: string;
  name?: string;
  email?: string;
  picture?: { data: { height: number; width: number; is_silhouette: boolean; url: string } };
  [field: string]: unknown;
}

const GRAPH_API_VERSION = "v21.0";

/** Facebook sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Facebook(options?: OAuthUserConfig<FacebookProfile>): OAuthPresetConfig<FacebookProfile> {
  return mergeProviderOptions<FacebookProfile>(
    {
      id: "facebook",
      name: "Facebook",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Facebook documents no guarantee that the returned email is verified, and sends no claim.
      trustEmail: false,
      authorization: { url: `https://www.facebook.com/${GRAPH_API_VERSION}/dialog/oauth`, params: { scope: "email" } },
      token: `https://graph.facebook.com/${GRAPH_API_VERSION}/oauth/access_token`,
      userinfo: { url: `https://graph.facebook.com/${GRAPH_API_VERSION}/me`, params: { fields: "id,name,email,picture" } },
      // Facebook reads the client credentials from the request parameters, not from HTTP Basic.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data.url ?? null,
      }),
      style: { brandColor: "#0866ff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "name", email: "email", image: "picture.data.url" },
  docs: "https://developers.facebook.com/docs/graph-api/reference/user/",
};
