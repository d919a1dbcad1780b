/**
 * Slack, "Sign in with Slack" (OpenID Connect, issuer `https://slack.com`). In the app's "OAuth &
 * Permissions", add the redirect URL `https://<your app>/auth/callback/slack` (Slack requires https) and
 * the user scopes `openid profile email`; set `AUTH_SLACK_ID` and `AUTH_SLACK_SECRET`.
 *
 * @module providers/slack
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Slack ID token (https://api.slack.com/authentication/sign-in-with-slack). */
export interface SlackProfile {
  iss: "https://slack.com";
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time?: number;
  nonce?: string;
  at_hash?: string;
  "https://slack.com/user_id": string;
  "https://slack.com/team_id": string;
  email?: string;
  email_verified?: boolean;
  date_email_verified?: number;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  "https://slack.com/team_name"?: string;
  "https://slack.com/team_domain"?: string;
  "https://slack.com/user_image_512"?: string;
  [claim: string]: unknown;
}

/** Slack sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Slack(options?: OAuthUserConfig<SlackProfile>): OAuthPresetConfig<SlackProfile> {
  return mergeProviderOptions<SlackProfile>(
    {
      id: "slack",
      name: "Slack",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Slack sends `email_verified`; that claim decides.
      trustEmail: false,
      issuer: "https://slack.com",
      authorization: { params: { scope: "openid profile email" } },
      checks: ["nonce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? profile["https://slack.com/user_image_512"] ?? null,
      }),
      style: { brandColor: "#611f69", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://api.slack.com/authentication/sign-in-with-slack",
};
