/**
 * GitLab (OAuth 2), gitlab.com by default. Create an application (scope `read_user`) with the redirect
 * URI `https://<your app>/auth/callback/gitlab`; set `AUTH_GITLAB_ID` and `AUTH_GITLAB_SECRET`.
 *
 * A self-managed instance: `GitLab({ baseUrl: "https://gitlab.example.com" })` moves all three endpoints
 * (`<baseUrl>/oauth/authorize`, `/oauth/token`, `/api/v4/user`; a base URL with a path, such as
 * `https://example.com/gitlab`, keeps it). `AUTH_GITLAB_ISSUER` is read as the base URL when the preset
 * is passed uncalled (`providers: [GitLab]`), since env options reach a preset as its `issuer` option;
 * an explicit `baseUrl` wins. Endpoints: https://docs.gitlab.com/integration/oauth_provider/ and
 * https://docs.gitlab.com/api/oauth2/.
 *
 * @module providers/gitlab
 */

import type { PresetMeta } from "./meta.js";
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

/** Options of the GitLab preset: any provider option, and the base URL of a self-managed instance. */
export interface GitLabOptions extends OAuthUserConfig<GitLabProfile> {
  /** Root URL of a self-managed GitLab (default `https://gitlab.com`, or `issuer` when given). */
  baseUrl?: string;
}

/**
 * GitLab sign-in. Options are merged over the defaults (`authorization.params` key by key); `baseUrl`
 * (else `issuer`, e.g. from `AUTH_GITLAB_ISSUER`) moves every endpoint to a self-managed instance.
 */
export default function GitLab(options: GitLabOptions = {}): OAuthPresetConfig<GitLabProfile> {
  const { baseUrl, issuer, ...providerOptions } = options;
  const root = (baseUrl ?? issuer ?? "https://gitlab.com").replace(/\/+$/, "");
  return mergeProviderOptions<GitLabProfile>(
    {
      id: "gitlab",
      name: "GitLab",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Self-managed GitLab can skip email confirmation; `/user` says nothing about it.
      trustEmail: false,
      issuer: root,
      authorization: { url: `${root}/oauth/authorize`, params: { scope: "read_user" } },
      token: `${root}/oauth/token`,
      userinfo: `${root}/api/v4/user`,
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name || profile.username,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { brandColor: "#fc6d26", text: "#fff" },
    },
    providerOptions,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "name ?? username", email: "email", image: "avatar_url" },
  selfHosted: { option: "baseUrl", env: "AUTH_GITLAB_ISSUER" },
  docs: "https://docs.gitlab.com/api/users/#for-normal-users",
};
