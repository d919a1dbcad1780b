/**
 * VK (OAuth 2, the authorization code flow of oauth.vk.com). Create a website app at
 * https://dev.vk.com with the redirect `https://<your app>/auth/callback/vk`; set `AUTH_VK_ID` and
 * `AUTH_VK_SECRET`. VK returns the email address in the token response (scope `email`), not in the
 * profile, and names no `token_type`.
 *
 * Docs: https://dev.vk.com/en/api/access-token/authcode-flow-user and
 * https://dev.vk.com/en/method/users.get
 *
 * @module providers/vk
 */
import { providerFetch } from "../oauth/provider-fetch.js";
import type { OAuthConfig } from "../types/providers.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl } from "./preset-request.js";

/** The VK API version the preset speaks. */
export const VK_API_VERSION = "5.199";

/** One user of `users.get` (https://dev.vk.com/en/reference/objects/user). */
export interface VkUser {
  id: number;
  first_name: string;
  last_name: string;
  photo_100?: string;
  photo_200?: string;
  screen_name?: string;
  [field: string]: unknown;
}

/** The answer of `users.get` for the signed-in user. */
export interface VkProfile {
  response: VkUser[];
  [field: string]: unknown;
}

/** `users.get` for the token's user, POSTed as a form (VK methods take parameters either way; a body keeps the token out of URLs). */
async function fetchVkUser({
  tokens,
  provider,
}: {
  tokens: { access_token?: string };
  provider: OAuthConfig<VkProfile>;
}): Promise<VkProfile> {
  const url = configuredUserinfoUrl(provider, "https://api.vk.com/method/users.get");
  const body = new URLSearchParams({ access_token: tokens.access_token ?? "", fields: "photo_100,screen_name", v: VK_API_VERSION });
  const response = await providerFetch(provider, url, { method: "POST", body, headers: { accept: "application/json" } });
  const profile = (await response.json()) as VkProfile & { error?: { error_msg?: string } };
  if (!response.ok || !Array.isArray(profile.response) || profile.response.length === 0) {
    throw new Error(`VK users.get failed: ${profile.error?.error_msg ?? `HTTP ${response.status}`}`);
  }
  return profile;
}

/** VK sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Vk(options?: OAuthUserConfig<VkProfile>): OAuthPresetConfig<VkProfile> {
  return mergeProviderOptions<VkProfile>(
    {
      id: "vk",
      name: "VK",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): VK documents no verification guarantee for the email of the token response.
      trustEmail: false,
      authorization: { url: "https://oauth.vk.com/authorize", params: { scope: "email", v: VK_API_VERSION } },
      token: "https://oauth.vk.com/access_token",
      userinfo: { url: "https://api.vk.com/method/users.get", request: fetchVkUser },
      client: { token_endpoint_auth_method: "client_secret_post" },
      tokenResponseQuirks: ["token-type-missing"],
      checks: ["state"],
      profile: (profile, tokens) => {
        const [user] = profile.response;
        if (!user) throw new Error("VK returned no user");
        return {
          id: String(user.id),
          name: `${user.first_name ?? ""} ${user.last_name ?? ""}`.trim() || user.screen_name || null,
          email: typeof tokens.email === "string" ? tokens.email : null,
          image: user.photo_100 ?? null,
        };
      },
      style: { brandColor: "#07f", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "response[0].id", name: "first_name + last_name", email: "email (token response)", image: "response[0].photo_100" },
  docs: "https://dev.vk.com/en/api/access-token/authcode-flow-user",
};
