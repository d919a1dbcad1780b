/**
 * Atlassian (OAuth 2.0 "3LO", Jira and Confluence Cloud). Create an app in the developer console
 * (https://developer.atlassian.com/console/myapps/), add the "User identity API" permission
 * (`read:me`) and the callback URL `https://<your app>/auth/callback/atlassian`; set
 * `AUTH_ATLASSIAN_ID` and `AUTH_ATLASSIAN_SECRET`. Add `offline_access` to the scope for a refresh
 * token. Endpoints and profile: https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/.
 *
 * @module providers/atlassian
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://api.atlassian.com/me` (https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/#how-do-i-retrieve-the-public-profile-of-the-authenticated-user-). */
export interface AtlassianProfile {
  account_type: string;
  account_id: string;
  email: string;
  email_verified?: boolean;
  name: string;
  picture: string;
  account_status: string;
  nickname?: string;
  zoneinfo?: string;
  locale?: string;
  extended_profile?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Atlassian sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Atlassian(options?: OAuthUserConfig<AtlassianProfile>): OAuthPresetConfig<AtlassianProfile> {
  return mergeProviderOptions<AtlassianProfile>(
    {
      id: "atlassian",
      name: "Atlassian",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): `/me` sends `email_verified`; that field decides, nothing more is assumed.
      trustEmail: false,
      authorization: {
        url: "https://auth.atlassian.com/authorize",
        params: { audience: "api.atlassian.com", prompt: "consent", scope: "read:me" },
      },
      token: "https://auth.atlassian.com/oauth/token",
      userinfo: "https://api.atlassian.com/me",
      // The documented request sends client_id and client_secret in the body; the documented response has no token_type.
      client: { token_endpoint_auth_method: "client_secret_post" },
      tokenResponseQuirks: ["token-type-missing"],
      // Atlassian documents no PKCE; `state` is required.
      checks: ["state"],
      profile: (profile) => ({ id: profile.account_id, name: profile.name, email: profile.email ?? null, image: profile.picture ?? null }),
      style: { brandColor: "#0052cc", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "account_id", name: "name", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/",
};
