/**
 * GitLab (OAuth 2), gitlab.com by default. Create an application (scope `read_user`) with the redirect
 * URI `https://<your app>/auth/callback/gitlab`; set `AUTH_GITLAB_ID` and `AUTH_GITLAB_SECRET`. For a
 * self-managed instance, pass its `authorization`, `token` and `userinfo` URLs.
 *
 * @module providers/gitlab
 */
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /api/v4/user` (https://docs.gitlab.com/api/users/#for-normal-users). */
export interface GitLabProfile {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
  created_at: string;
  bio?: string;
  public_email?: string | null;
  email: string;
  commit_email?: string;
  confirmed_at?: string;
  two_factor_enabled?: boolean;
  bot?: boolean;
  [field: string]: unknown;
}

/** GitLab sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function GitLab(options?: OAuthUserConfig<GitLabProfile>): OAuthPresetConfig<GitLabProfile> {
  return mergeProviderOptions<GitLabProfile>(
    {
      id: "gitlab",
      name: "GitLab",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Self-managed GitLab can skip email confirmation; `/user` says nothing about it.
      trustEmail: false,
      authorization: { url: "https://gitlab.com/oauth/authorize", params: { scope: "read_user" } },
      token: "https://gitlab.com/oauth/token",
      userinfo: "https://gitlab.com/api/v4/user",
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name || profile.username,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { brandColor: "#fc6d26", text: "#fff" },
    },
    options,
  );
}
