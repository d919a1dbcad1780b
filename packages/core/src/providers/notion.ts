/**
 * Notion (OAuth 2, public integrations). Create a public integration at
 * https://www.notion.so/profile/integrations with the redirect URI `https://<your app>/auth/callback/notion`
 * and the capability "Read user information including email addresses"; set `AUTH_NOTION_ID` and
 * `AUTH_NOTION_SECRET`. Endpoints: https://developers.notion.com/docs/authorization#public-integration-auth-flow-set-up.
 *
 * The token response names the user who authorised the integration (`owner.user`); that is the profile.
 *
 * @module providers/notion
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** A person user (https://developers.notion.com/reference/user). */
export interface NotionProfile {
  object: "user";
  id: string;
  type?: "person";
  name?: string | null;
  avatar_url?: string | null;
  /** With the capability to read email addresses. */
  person?: { email?: string };
  [field: string]: unknown;
}

/** Notion sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Notion(options?: OAuthUserConfig<NotionProfile>): OAuthPresetConfig<NotionProfile> {
  return mergeProviderOptions<NotionProfile>(
    {
      id: "notion",
      name: "Notion",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Notion documents no verification guarantee for `person.email`, and sends no claim.
      trustEmail: false,
      authorization: { url: "https://api.notion.com/v1/oauth/authorize", params: { owner: "user" } },
      token: "https://api.notion.com/v1/oauth/token",
      userinfo: {
        url: "https://api.notion.com/v1/users/me",
        request({ tokens }) {
          const owner = tokens.owner as { type?: string; user?: NotionProfile } | undefined;
          if (owner?.type !== "user" || !owner.user?.id) throw new Error("Notion's token response names no user owner");
          return owner.user;
        },
      },
      // Notion documents no PKCE; client credentials go in the Basic header.
      checks: ["state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.name ?? null,
        email: profile.person?.email ?? null,
        image: profile.avatar_url ?? null,
      }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "owner.user.id", name: "owner.user.name", email: "owner.user.person.email", image: "owner.user.avatar_url" },
  docs: "https://developers.notion.com/docs/authorization",
};
