/**
 * WorkOS SSO (OAuth 2). In the WorkOS dashboard, add the redirect URI
 * `https://<your app>/auth/callback/workos`; set `AUTH_WORKOS_ID` (the client id `client_…`) and
 * `AUTH_WORKOS_SECRET` (the API key). WorkOS needs to know which connection to use: pass one of
 * `connection`, `organization` or `provider` (e.g. `GoogleOAuth`) in `authorization.params`, or as a
 * sign-in parameter (`signIn("workos", {}, { organization: "org_…" })`).
 *
 * The profile comes in the token response (`profile`), not from a userinfo endpoint, and the token
 * response names no `token_type`.
 *
 * Docs: https://workos.com/docs/reference/sso/get-authorization-url and
 * https://workos.com/docs/reference/sso/profile/get-profile-and-token
 *
 * @module providers/workos
 */

import type { TokenSet } from "../types/providers.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The `profile` of `POST /sso/token` (https://workos.com/docs/reference/sso/profile). */
export interface WorkOSProfile {
  object: "profile";
  id: string;
  organization_id: string | null;
  connection_id: string;
  connection_type: string;
  idp_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role?: { slug: string } | null;
  groups?: string[];
  raw_attributes?: Record<string, unknown>;
  [field: string]: unknown;
}

function profileOfTokens({ tokens }: { tokens: TokenSet }): WorkOSProfile {
  const profile = tokens.profile as WorkOSProfile | undefined;
  if (typeof profile !== "object" || profile === null || typeof profile.id !== "string") {
    throw new Error("The WorkOS token response carries no profile");
  }
  return profile;
}

/** WorkOS SSO sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function WorkOS(options?: OAuthUserConfig<WorkOSProfile>): OAuthPresetConfig<WorkOSProfile> {
  return mergeProviderOptions<WorkOSProfile>(
    {
      id: "workos",
      name: "WorkOS",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The email comes from the customer's identity provider; WorkOS does not verify it.
      trustEmail: false,
      authorization: "https://api.workos.com/sso/authorize",
      token: "https://api.workos.com/sso/token",
      userinfo: { url: "https://api.workos.com/sso/profile", request: profileOfTokens },
      // WorkOS reads client_id and client_secret from the form body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      tokenResponseQuirks: ["token-type-missing"],
      profile: (profile) => ({
        id: profile.id,
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#6363f1", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "profile.id (token response)", name: "first_name + last_name", email: "profile.email", image: null },
  docs: "https://workos.com/docs/reference/sso/profile/get-profile-and-token",
};
