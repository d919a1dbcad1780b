/**
 * HubSpot (OAuth 2). Create an app with the redirect URL `https://<your app>/auth/callback/hubspot`
 * and the scope `oauth`; set `AUTH_HUBSPOT_ID` and `AUTH_HUBSPOT_SECRET`. Endpoints:
 * https://developers.hubspot.com/docs/api/oauth-quickstart-guide.
 *
 * HubSpot has no userinfo endpoint: the preset reads the token's metadata,
 * `GET /oauth/v1/access-tokens/<token>`, which names the user (an email address) and their portal.
 *
 * @module providers/hubspot
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl, presetJson } from "./preset-request.js";

/** `GET /oauth/v1/access-tokens/<token>` (https://developers.hubspot.com/docs/api/oauth/tokens). */
export interface HubSpotProfile {
  token: string;
  /** The user's email address. */
  user: string;
  user_id: number;
  hub_domain: string;
  hub_id: number;
  app_id: number;
  scopes: string[];
  expires_in: number;
  token_type: string;
  [field: string]: unknown;
}

const TOKEN_INFO = "https://api.hubapi.com/oauth/v1/access-tokens";

/** HubSpot sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function HubSpot(options?: OAuthUserConfig<HubSpotProfile>): OAuthPresetConfig<HubSpotProfile> {
  return mergeProviderOptions<HubSpotProfile>(
    {
      id: "hubspot",
      name: "HubSpot",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The token metadata names the user by address without saying it was verified.
      trustEmail: false,
      authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
      token: "https://api.hubapi.com/oauth/v1/token",
      userinfo: {
        url: TOKEN_INFO,
        request: ({ tokens, provider }) =>
          presetJson<HubSpotProfile>(
            provider,
            `${configuredUserinfoUrl(provider, TOKEN_INFO)}/${encodeURIComponent(tokens.access_token ?? "")}`,
          ),
      },
      // The documented token request sends client_id and client_secret in the body; no PKCE.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({ id: String(profile.user_id), name: profile.user, email: profile.user ?? null, image: null }),
      style: { brandColor: "#ff7a59", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "user_id", name: "user", email: "user", image: null },
  docs: "https://developers.hubspot.com/docs/api/oauth/tokens",
};
