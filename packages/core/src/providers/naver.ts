/**
 * Naver Login (OAuth 2). Register an application at https://developers.naver.com with the callback URL
 * `https://<your app>/auth/callback/naver`; set `AUTH_NAVER_ID` and `AUTH_NAVER_SECRET`. Endpoints:
 * https://developers.naver.com/docs/login/api/api.md.
 *
 * @module providers/naver
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://openapi.naver.com/v1/nid/me` (https://developers.naver.com/docs/login/profile/profile.md). */
export interface NaverProfile {
  resultcode: string;
  message: string;
  response: {
    id: string;
    nickname?: string;
    name?: string;
    email?: string;
    gender?: "F" | "M" | "U";
    age?: string;
    birthday?: string;
    profile_image?: string;
    birthyear?: string;
    mobile?: string;
  };
  [field: string]: unknown;
}

/** Naver sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Naver(options?: OAuthUserConfig<NaverProfile>): OAuthPresetConfig<NaverProfile> {
  return mergeProviderOptions<NaverProfile>(
    {
      id: "naver",
      name: "Naver",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Naver documents no verification guarantee for `email`, and sends no claim.
      trustEmail: false,
      authorization: "https://nid.naver.com/oauth2.0/authorize",
      token: "https://nid.naver.com/oauth2.0/token",
      userinfo: "https://openapi.naver.com/v1/nid/me",
      // The documented token request sends client_id and client_secret as parameters; no PKCE.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: ({ response }) => ({
        id: response.id,
        name: response.nickname ?? response.name ?? null,
        email: response.email ?? null,
        image: response.profile_image ?? null,
      }),
      style: { brandColor: "#03c75a", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "response.id", name: "response.nickname ?? response.name", email: "response.email", image: "response.profile_image" },
  docs: "https://developers.naver.com/docs/login/profile/profile.md",
};
