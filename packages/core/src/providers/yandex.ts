/**
 * Yandex ID (OAuth 2). Create an app at https://oauth.yandex.com/client/new with the redirect URI
 * `https://<your app>/auth/callback/yandex` and the "Access to email address", "Access to username,
 * first name and surname, gender" and "Access to user avatar" permissions; set `AUTH_YANDEX_ID` and
 * `AUTH_YANDEX_SECRET`. The profile API authenticates with the `OAuth` scheme, not `Bearer`.
 *
 * Docs: https://yandex.com/dev/id/doc/en/codes/code-url and https://yandex.com/dev/id/doc/en/user-information
 *
 * @module providers/yandex
 */

import type { OAuthConfig, TokenSet } from "../types/providers.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl, presetJson } from "./preset-request.js";

/** `GET https://login.yandex.ru/info?format=json` (https://yandex.com/dev/id/doc/en/user-information). */
export interface YandexProfile {
  id: string;
  login: string;
  client_id: string;
  psuid: string;
  display_name?: string;
  real_name?: string;
  first_name?: string;
  last_name?: string;
  sex?: "male" | "female" | null;
  default_email?: string;
  emails?: string[];
  default_avatar_id?: string;
  is_avatar_empty?: boolean;
  [field: string]: unknown;
}

/** The URL of a Yandex avatar in the 200x200 size (https://yandex.com/dev/id/doc/en/user-information#avatar-access). */
export function yandexAvatarUrl(profile: Pick<YandexProfile, "default_avatar_id" | "is_avatar_empty">): string | null {
  if (profile.is_avatar_empty || !profile.default_avatar_id) return null;
  return `https://avatars.yandex.net/get-yapic/${encodeURIComponent(profile.default_avatar_id)}/islands-200`;
}

async function fetchYandexUser({ tokens, provider }: { tokens: TokenSet; provider: OAuthConfig<YandexProfile> }): Promise<YandexProfile> {
  const base = configuredUserinfoUrl(provider, "https://login.yandex.ru/info");
  const url = new URL(base);
  url.searchParams.set("format", "json");
  return presetJson<YandexProfile>(provider, url.href, { headers: { authorization: `OAuth ${tokens.access_token}` } });
}

/** Yandex sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Yandex(options?: OAuthUserConfig<YandexProfile>): OAuthPresetConfig<YandexProfile> {
  return mergeProviderOptions<YandexProfile>(
    {
      id: "yandex",
      name: "Yandex",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Yandex documents no verification guarantee for `default_email`.
      trustEmail: false,
      authorization: { url: "https://oauth.yandex.ru/authorize", params: { scope: "login:info login:email login:avatar" } },
      token: "https://oauth.yandex.ru/token",
      userinfo: { url: "https://login.yandex.ru/info", request: fetchYandexUser },
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name ?? profile.real_name ?? profile.login,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image: yandexAvatarUrl(profile),
      }),
      style: { brandColor: "#fc3f1d", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "display_name ?? real_name ?? login", email: "default_email", image: "default_avatar_id" },
  docs: "https://yandex.com/dev/id/doc/en/user-information",
};
