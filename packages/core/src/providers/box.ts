/**
 * Box (OAuth 2). Create a "Custom App" with "User Authentication (OAuth 2.0)" in the Box developer
 * console with the redirect URI `https://<your app>/auth/callback/box`; set `AUTH_BOX_ID` and
 * `AUTH_BOX_SECRET`. Endpoints: https://developer.box.com/guides/authentication/oauth2/without-sdk/.
 *
 * @module providers/box
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://api.box.com/2.0/users/me` (https://developer.box.com/reference/get-users-me/). */
export interface BoxProfile {
  type: "user";
  id: string;
  name: string;
  /** The primary login address. */
  login: string;
  avatar_url?: string;
  created_at?: string;
  modified_at?: string;
  language?: string;
  timezone?: string;
  status?: string;
  [field: string]: unknown;
}

/** Box sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Box(options?: OAuthUserConfig<BoxProfile>): OAuthPresetConfig<BoxProfile> {
  return mergeProviderOptions<BoxProfile>(
    {
      id: "box",
      name: "Box",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Box documents no guarantee that `login` was confirmed, and sends no claim.
      trustEmail: false,
      authorization: "https://account.box.com/api/oauth2/authorize",
      token: "https://api.box.com/oauth2/token",
      userinfo: "https://api.box.com/2.0/users/me",
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      // Box documents no PKCE.
      checks: ["state"],
      profile: (profile) => ({ id: profile.id, name: profile.name, email: profile.login ?? null, image: profile.avatar_url ?? null }),
      style: { brandColor: "#0061d5", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "name", email: "login", image: "avatar_url" },
  docs: "https://developer.box.com/reference/get-users-me/",
};
