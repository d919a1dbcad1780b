/**
 * Roblox (OpenID Connect, issuer `https://apis.roblox.com/oauth/`). Create an OAuth 2.0 app in the
 * Creator Dashboard with the redirect URL `https://<your app>/auth/callback/roblox` and the scopes
 * `openid profile`; set `AUTH_ROBLOX_ID` and `AUTH_ROBLOX_SECRET`. Roblox returns no email.
 * Docs: https://create.roblox.com/docs/cloud/reference/oauth2.
 *
 * @module providers/roblox
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Roblox ID token (https://create.roblox.com/docs/cloud/reference/oauth2#get-v1userinfo). */
export interface RobloxProfile {
  sub: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  created_at?: number;
  profile?: string;
  picture?: string | null;
  [claim: string]: unknown;
}

/** Roblox sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Roblox(options?: OAuthUserConfig<RobloxProfile>): OAuthPresetConfig<RobloxProfile> {
  return mergeProviderOptions<RobloxProfile>(
    {
      id: "roblox",
      name: "Roblox",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Roblox returns no email address.
      trustEmail: false,
      issuer: "https://apis.roblox.com/oauth/",
      authorization: { params: { scope: "openid profile" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.nickname ?? profile.preferred_username ?? profile.name ?? null,
        email: null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "nickname ?? preferred_username", email: null, image: "picture" },
  docs: "https://create.roblox.com/docs/cloud/reference/oauth2",
};
