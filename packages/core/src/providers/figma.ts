/**
 * Figma (OAuth 2). Create an OAuth app at https://www.figma.com/developers/apps with the callback
 * `https://<your app>/auth/callback/figma` and the scope `current_user:read`; set `AUTH_FIGMA_ID` and
 * `AUTH_FIGMA_SECRET`. Endpoints: https://www.figma.com/developers/api#oauth2.
 *
 * @module providers/figma
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://api.figma.com/v1/me` (https://www.figma.com/developers/api#users-types). */
export interface FigmaProfile {
  id: string;
  handle: string;
  img_url: string;
  email: string;
  [field: string]: unknown;
}

/** Figma sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Figma(options?: OAuthUserConfig<FigmaProfile>): OAuthPresetConfig<FigmaProfile> {
  return mergeProviderOptions<FigmaProfile>(
    {
      id: "figma",
      name: "Figma",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Figma documents no verification guarantee for `email`, and sends no claim.
      trustEmail: false,
      authorization: { url: "https://www.figma.com/oauth", params: { scope: "current_user:read" } },
      token: "https://api.figma.com/v1/oauth/token",
      userinfo: "https://api.figma.com/v1/me",
      // The documented token response has no token_type.
      tokenResponseQuirks: ["token-type-missing"],
      checks: ["state"],
      profile: (profile) => ({ id: profile.id, name: profile.handle, email: profile.email ?? null, image: profile.img_url ?? null }),
      style: { brandColor: "#0d0d0d", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "handle", email: "email", image: "img_url" },
  docs: "https://www.figma.com/developers/api#oauth2",
};
