/**
 * Kakao Login (OAuth 2). Register an app at https://developers.kakao.com, enable Kakao Login with the
 * redirect URI `https://<your app>/auth/callback/kakao`, enable the client secret and the consent items
 * (nickname, profile image, email); set `AUTH_KAKAO_ID` (REST API key) and `AUTH_KAKAO_SECRET`.
 * Endpoints: https://developers.kakao.com/docs/latest/en/kakaologin/rest-api.
 *
 * @module providers/kakao
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://kapi.kakao.com/v2/user/me` (https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info). */
export interface KakaoProfile {
  id: number;
  connected_at?: string;
  properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string };
  kakao_account?: {
    profile_needs_agreement?: boolean;
    profile?: { nickname?: string; thumbnail_image_url?: string; profile_image_url?: string; is_default_image?: boolean };
    email_needs_agreement?: boolean;
    has_email?: boolean;
    /** The address is valid (not expired). */
    is_email_valid?: boolean;
    /** The address was verified. */
    is_email_verified?: boolean;
    email?: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** Kakao sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Kakao(options?: OAuthUserConfig<KakaoProfile>): OAuthPresetConfig<KakaoProfile> {
  return mergeProviderOptions<KakaoProfile>(
    {
      id: "kakao",
      name: "Kakao",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Kakao says per account whether the address is verified and still valid; both must hold.
      trustEmail: (profile) => profile.kakao_account?.is_email_verified === true && profile.kakao_account.is_email_valid === true,
      authorization: "https://kauth.kakao.com/oauth/authorize",
      token: "https://kauth.kakao.com/oauth/token",
      userinfo: "https://kapi.kakao.com/v2/user/me",
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.kakao_account?.profile?.nickname ?? profile.properties?.nickname ?? null,
        email: profile.kakao_account?.email ?? null,
        image: profile.kakao_account?.profile?.profile_image_url ?? profile.properties?.profile_image ?? null,
      }),
      style: { brandColor: "#fee500", text: "#000" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: {
    id: "id",
    name: "kakao_account.profile.nickname",
    email: "kakao_account.email",
    image: "kakao_account.profile.profile_image_url",
  },
  emailTrustedWhen: "`is_email_verified` and `is_email_valid` are true",
  docs: "https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info",
};
