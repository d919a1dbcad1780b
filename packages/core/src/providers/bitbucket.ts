/**
 * Bitbucket Cloud (OAuth 2). Add an OAuth consumer in a workspace's settings with the callback URL
 * `https://<your app>/auth/callback/bitbucket` and the permissions "Account: Email, Read"; set
 * `AUTH_BITBUCKET_ID` (the key) and `AUTH_BITBUCKET_SECRET` (the secret).
 *
 * The profile is `GET /2.0/user`; its email comes from `GET /2.0/user/emails` (primary, confirmed).
 *
 * @module providers/bitbucket
 */
import { providerFetch } from "../oauth/provider-fetch.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl } from "./preset-request.js";

/** `GET /2.0/user` (https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/#api-user-get), plus `email`. */
export interface BitbucketProfile {
  type: "user";
  uuid: string;
  account_id: string;
  display_name: string;
  nickname: string;
  account_status?: string;
  created_on?: string;
  has_2fa_enabled?: boolean | null;
  is_staff?: boolean;
  location?: string | null;
  links: { avatar?: { href: string }; html?: { href: string }; self?: { href: string }; [link: string]: { href?: string } | undefined };
  /** Added by the preset from `GET /2.0/user/emails`. */
  email?: string | null;
  [field: string]: unknown;
}

/** An entry of `GET /2.0/user/emails`. */
interface BitbucketEmail {
  email: string;
  is_primary: boolean;
  is_confirmed: boolean;
}

const API = "https://api.bitbucket.org/2.0";

/** Bitbucket sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Bitbucket(options?: OAuthUserConfig<BitbucketProfile>): OAuthPresetConfig<BitbucketProfile> {
  return mergeProviderOptions<BitbucketProfile>(
    {
      id: "bitbucket",
      name: "Bitbucket",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The preset takes the email only from `/user/emails` entries with `is_confirmed: true`.
      trustEmail: true,
      authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account email" } },
      token: "https://bitbucket.org/site/oauth2/access_token",
      userinfo: {
        url: `${API}/user`,
        async request({ tokens, provider }) {
          const headers = { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" };
          // The configured userinfo URL (default `${API}/user`) also locates `/user/emails`.
          const userUrl = configuredUserinfoUrl(provider, `${API}/user`);
          // Bounded like every provider request (timeout, `maxResponseBytes`).
          const response = await providerFetch(provider, userUrl, { headers });
          if (!response.ok) throw new Error(`Bitbucket answered HTTP ${response.status} to GET /2.0/user`);
          const profile = (await response.json()) as BitbucketProfile;
          const emails = await providerFetch(provider, `${userUrl}/emails`, { headers });
          if (emails.ok) {
            const { values = [] } = (await emails.json()) as { values?: BitbucketEmail[] };
            profile.email = (values.find((e) => e.is_primary && e.is_confirmed) ?? values.find((e) => e.is_confirmed))?.email ?? null;
          }
          return profile;
        },
      },
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.account_id,
        name: profile.display_name || profile.nickname,
        email: profile.email ?? null,
        image: profile.links.avatar?.href ?? null,
      }),
      style: { brandColor: "#0052cc", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "account_id", name: "display_name ?? nickname", email: "/user/emails (confirmed)", image: "links.avatar.href" },
  docs: "https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/#api-user-get",
};
