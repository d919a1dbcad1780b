/**
 * Linear (OAuth 2). Create an OAuth application in the workspace settings with the callback URL
 * `https://<your app>/auth/callback/linear`; set `AUTH_LINEAR_ID` and `AUTH_LINEAR_SECRET`.
 * Endpoints: https://linear.app/developers/oauth-2-0-authentication.
 *
 * Linear has no userinfo endpoint: the preset asks its GraphQL API for the `viewer`.
 *
 * @module providers/linear
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl, presetJson } from "./preset-request.js";

/** The `viewer` of Linear's GraphQL API (https://linear.app/developers/graphql#queries-and-mutations). */
export interface LinearProfile {
  id: string;
  name: string;
  displayName?: string;
  email: string;
  avatarUrl: string | null;
  [field: string]: unknown;
}

const GRAPHQL = "https://api.linear.app/graphql";
const VIEWER_QUERY = "query { viewer { id name displayName email avatarUrl } }";

/** Linear sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Linear(options?: OAuthUserConfig<LinearProfile>): OAuthPresetConfig<LinearProfile> {
  return mergeProviderOptions<LinearProfile>(
    {
      id: "linear",
      name: "Linear",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Linear documents no verification guarantee for the viewer's email, and sends no claim.
      trustEmail: false,
      authorization: { url: "https://linear.app/oauth/authorize", params: { scope: "read" } },
      token: "https://api.linear.app/oauth/token",
      userinfo: {
        url: GRAPHQL,
        async request({ tokens, provider }) {
          const result = await presetJson<{ data?: { viewer?: LinearProfile }; errors?: unknown[] }>(
            provider,
            configuredUserinfoUrl(provider, GRAPHQL),
            {
              method: "POST",
              headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
              body: JSON.stringify({ query: VIEWER_QUERY }),
            },
          );
          if (!result.data?.viewer) throw new Error("Linear returned no viewer");
          return result.data.viewer;
        },
      },
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? profile.displayName ?? null,
        email: profile.email ?? null,
        image: profile.avatarUrl,
      }),
      style: { brandColor: "#5e6ad2", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "viewer.id", name: "viewer.name", email: "viewer.email", image: "viewer.avatarUrl" },
  docs: "https://linear.app/developers/oauth-2-0-authentication",
};
