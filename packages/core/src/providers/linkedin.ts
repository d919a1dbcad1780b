/**
 * LinkedIn, "Sign In with LinkedIn using OpenID Connect" (issuer `https://www.linkedin.com/oauth`). Add
 * the product to an app at https://www.linkedin.com/developers/apps with the redirect URL
 * `https://<your app>/auth/callback/linkedin`; set `AUTH_LINKEDIN_ID` and `AUTH_LINKEDIN_SECRET`.
 *
 * LinkedIn authenticates clients in the form body only, and rejects a confidential client's token
 * request carrying a PKCE verifier; the flow is protected by the state check instead.
 *
 * @module providers/linkedin
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a LinkedIn ID token (https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2). */
export interface LinkedInProfile {
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  sub: string;
  name: string;
  given_name: string;
  family_name: string;
  picture?: string;
  email?: string;
  email_verified?: boolean | "true" | "false";
  locale?: string | { country: string; language: string };
  [claim: string]: unknown;
}

/** LinkedIn sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function LinkedIn(options?: OAuthUserConfig<LinkedInProfile>): OAuthPresetConfig<LinkedInProfile> {
  return mergeProviderOptions<LinkedInProfile>(
    {
      id: "linkedin",
      name: "LinkedIn",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): LinkedIn sends `email_verified`; that claim decides.
      trustEmail: false,
      issuer: "https://www.linkedin.com/oauth",
      authorization: { params: { scope: "openid profile email" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: (profile) => ({ id: profile.sub, name: profile.name, email: profile.email ?? null, image: profile.picture ?? null }),
      style: { brandColor: "#0a66c2", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2",
};
