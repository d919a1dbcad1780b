/**
 * Kick (OAuth 2.1: PKCE required). Create an app in the Kick developer settings with the redirect URL
 * `https://<your app>/auth/callback/kick` and the scope `user:read`; set `AUTH_KICK_ID` and
 * `AUTH_KICK_SECRET`. Endpoints: https://docs.kick.com/getting-started/generating-tokens-oauth2-flow.
 *
 * @module providers/kick
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** One user of `GET https://api.kick.com/public/v1/users` (https://docs.kick.com/apis/users). */
export interface KickUser {
  user_id: number;
  name: string;
  email?: string;
  profile_picture?: string;
}

/** `GET /public/v1/users` without ids: the authorised user, wrapped in `data`. */
export interface KickProfile {
  data: KickUser[];
  message?: string;
  [field: string]: unknown;
}

/** Kick sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Kick(options?: OAuthUserConfig<KickProfile>): OAuthPresetConfig<KickProfile> {
  return mergeProviderOptions<KickProfile>(
    {
      id: "kick",
      name: "Kick",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Kick documents no verification guarantee for `email`, and sends no claim.
      trustEmail: false,
      authorization: { url: "https://id.kick.com/oauth/authorize", params: { scope: "user:read" } },
      token: "https://id.kick.com/oauth/token",
      userinfo: "https://api.kick.com/public/v1/users",
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["pkce", "state"],
      profile: ({ data }) => {
        const [user] = data;
        if (!user) throw new Error("Kick returned no user");
        return { id: String(user.user_id), name: user.name, email: user.email ?? null, image: user.profile_picture ?? null };
      },
      style: { brandColor: "#53fc18", text: "#000" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "data[0].user_id", name: "data[0].name", email: "data[0].email", image: "data[0].profile_picture" },
  docs: "https://docs.kick.com/apis/users",
};
