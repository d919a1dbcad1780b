/**
 * Strava (OAuth 2). Create an API application at https://www.strava.com/settings/api with the
 * authorization callback domain of your app; set `AUTH_STRAVA_ID` and `AUTH_STRAVA_SECRET`. Strava
 * returns no email address.
 *
 * Docs: https://developers.strava.com/docs/authentication/
 *
 * @module providers/strava
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /api/v3/athlete`, the summary athlete (https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete). */
export interface StravaProfile {
  id: number;
  username: string | null;
  firstname: string;
  lastname: string;
  city?: string | null;
  country?: string | null;
  sex?: "M" | "F" | null;
  premium?: boolean;
  summit?: boolean;
  created_at?: string;
  /** URL of the 124x124 profile picture. */
  profile: string;
  /** URL of the 62x62 profile picture. */
  profile_medium?: string;
  [field: string]: unknown;
}

/** Strava sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Strava(options?: OAuthUserConfig<StravaProfile>): OAuthPresetConfig<StravaProfile> {
  return mergeProviderOptions<StravaProfile>(
    {
      id: "strava",
      name: "Strava",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Strava returns no email.
      trustEmail: false,
      authorization: { url: "https://www.strava.com/oauth/authorize", params: { scope: "read", approval_prompt: "auto" } },
      // Strava reads client_id and client_secret from the form body.
      token: "https://www.strava.com/oauth/token",
      userinfo: "https://www.strava.com/api/v3/athlete",
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({
        id: String(profile.id),
        name: `${profile.firstname ?? ""} ${profile.lastname ?? ""}`.trim() || profile.username || null,
        email: null,
        image: profile.profile ?? null,
      }),
      style: { brandColor: "#fc4c02", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "firstname + lastname", email: null, image: "profile" },
  docs: "https://developers.strava.com/docs/authentication/",
};
