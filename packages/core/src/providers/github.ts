/**
 * GitHub (OAuth 2). Register an OAuth app at https://github.com/settings/developers with the callback
 * URL `https://<your app>/auth/callback/github`; set `AUTH_GITHUB_ID` and `AUTH_GITHUB_SECRET`.
 *
 * The profile is `GET https://api.github.com/user`; when the user keeps their email private, the primary
 * address comes from `GET /user/emails` (scope `user:email`).
 *
 * @module providers/github
 */
import { providerFetch } from "../oauth/provider-fetch.js";
import type { OAuthConfig } from "../types/providers.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** An entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: "public" | "private" | null;
}

/** `GET /user` of the signed-in user (https://docs.github.com/en/rest/users/users#get-the-authenticated-user). */
export interface GitHubProfile {
  login: string;
  id: number;
  node_id: string;
  avatar_url: string;
  gravatar_id: string | null;
  html_url: string;
  type: string;
  site_admin: boolean;
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  email: string | null;
  hireable: boolean | null;
  bio: string | null;
  twitter_username?: string | null;
  public_repos: number;
  followers: number;
  following: number;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

const API = "https://api.github.com";

/**
 * The REST API root: the configured userinfo URL without its `/user` path, so a `userinfo` option
 * (GitHub Enterprise Server: `https://<host>/api/v3/user`) moves the `/user/emails` call too.
 */
function apiRoot(provider: OAuthConfig<GitHubProfile>): string {
  const userinfo = typeof provider.userinfo === "string" ? provider.userinfo : provider.userinfo?.url;
  return (userinfo ?? `${API}/user`).replace(/\/user\/?$/, "");
}

/** A GitHub API call, bounded like every provider request (timeout, `maxResponseBytes`). */
async function githubJson<T>(
  provider: OAuthConfig<GitHubProfile>,
  path: string,
  accessToken: string | undefined,
): Promise<{ ok: boolean; body: T }> {
  const response = await providerFetch(provider, `${apiRoot(provider)}${path}`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/vnd.github+json", "user-agent": "authlib" },
  });
  return { ok: response.ok, body: (await response.json()) as T };
}

/** GitHub sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function GitHub(options?: OAuthUserConfig<GitHubProfile>): OAuthPresetConfig<GitHubProfile> {
  return mergeProviderOptions<GitHubProfile>(
    {
      id: "github",
      name: "GitHub",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): A GitHub public email can only be a verified one, and the `/user/emails` fallback takes verified entries only.
      trustEmail: true,
      authorization: { url: "https://github.com/login/oauth/authorize", params: { scope: "read:user user:email" } },
      token: "https://github.com/login/oauth/access_token",
      userinfo: {
        url: `${API}/user`,
        async request({ tokens, provider }) {
          const user = await githubJson<GitHubProfile>(provider, "/user", tokens.access_token);
          if (!user.ok) throw new Error(`GitHub answered HTTP error to GET /user`);
          if (!user.body.email) {
            const emails = await githubJson<GitHubEmail[]>(provider, "/user/emails", tokens.access_token);
            if (emails.ok && Array.isArray(emails.body)) {
              user.body.email = (emails.body.find((e) => e.primary && e.verified) ?? emails.body.find((e) => e.verified))?.email ?? null;
            }
          }
          return user.body;
        },
      },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      }),
      style: { brandColor: "#24292f", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "name ?? login", email: "email ?? /user/emails (verified)", image: "avatar_url" },
  docs: "https://docs.github.com/en/rest/users/users#get-the-authenticated-user",
};
