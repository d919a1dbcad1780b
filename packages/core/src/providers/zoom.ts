/**
 * Zoom (OAuth 2). Create a "General app" (user-managed) in the Zoom App Marketplace with the redirect
 * URL `https://<your app>/auth/callback/zoom` and the `user:read:user` scope; set `AUTH_ZOOM_ID` and
 * `AUTH_ZOOM_SECRET`.
 *
 * Docs: https://developers.zoom.us/docs/integrations/oauth/ and
 * https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}
 *
 * @module providers/zoom
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /v2/users/me` (https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}). */
export interface ZoomProfile {
  id: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
  email: string;
  type?: number;
  role_name?: string;
  pmi?: number;
  timezone?: string;
  /** `1` when the user's email address is verified. */
  verified?: number;
  pic_url?: string;
  account_id?: string;
  status?: "pending" | "active" | "inactive";
  [field: string]: unknown;
}

/** Zoom sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Zoom(options?: OAuthUserConfig<ZoomProfile>): OAuthPresetConfig<ZoomProfile> {
  return mergeProviderOptions<ZoomProfile>(
    {
      id: "zoom",
      name: "Zoom",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Zoom says per user whether the email is verified (`verified: 1`).
      trustEmail: (profile) => profile.verified === 1,
      authorization: "https://zoom.us/oauth/authorize",
      token: "https://zoom.us/oauth/token",
      userinfo: "https://api.zoom.us/v2/users/me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name || [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.pic_url ?? null,
      }),
      style: { brandColor: "#0b5cff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "display_name ?? first_name + last_name", email: "email", image: "pic_url" },
  emailTrustedWhen: "`verified` is 1",
  docs: "https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}",
};
