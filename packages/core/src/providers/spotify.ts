/**
 * Spotify (OAuth 2). Create an app at https://developer.spotify.com/dashboard with the redirect URI
 * `https://<your app>/auth/callback/spotify` (Spotify allows plain http only for loopback IP addresses,
 * such as `http://127.0.0.1:3000`); set `AUTH_SPOTIFY_ID` and `AUTH_SPOTIFY_SECRET`.
 *
 * @module providers/spotify
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** An image of the Spotify Web API. */
export interface SpotifyImage {
  url: string;
  height: number | null;
  width: number | null;
}

/** `GET /v1/me` (https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile). */
export interface SpotifyProfile {
  id: string;
  display_name: string | null;
  /** Needs the `user-read-email` scope; not verified by Spotify. */
  email?: string;
  country?: string;
  product?: string;
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean };
  external_urls: { spotify: string };
  followers: { href: string | null; total: number };
  href: string;
  images: SpotifyImage[];
  type: "user";
  uri: string;
  [field: string]: unknown;
}

/** Spotify sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Spotify(options?: OAuthUserConfig<SpotifyProfile>): OAuthPresetConfig<SpotifyProfile> {
  return mergeProviderOptions<SpotifyProfile>(
    {
      id: "spotify",
      name: "Spotify",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Spotify does not verify the addresses it returns.
      trustEmail: false,
      authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
      token: "https://accounts.spotify.com/api/token",
      userinfo: "https://api.spotify.com/v1/me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name ?? profile.id,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      }),
      style: { brandColor: "#1db954", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "display_name ?? id", email: "email", image: "images[0].url" },
  docs: "https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile",
};
