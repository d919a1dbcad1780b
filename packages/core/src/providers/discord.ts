/**
 * Discord (OAuth 2). Create an application at https://discord.com/developers/applications with the
 * redirect `https://<your app>/auth/callback/discord`; set `AUTH_DISCORD_ID` and `AUTH_DISCORD_SECRET`.
 *
 * @module providers/discord
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /users/@me` (https://discord.com/developers/docs/resources/user#user-object). */
export interface DiscordProfile {
  /** Snowflake id. */
  id: string;
  username: string;
  /** `"0"` for accounts on the new username system. */
  discriminator: string;
  global_name: string | null;
  /** Avatar hash; animated avatars start with `a_`. */
  avatar: string | null;
  bot?: boolean;
  system?: boolean;
  mfa_enabled?: boolean;
  banner?: string | null;
  accent_color?: number | null;
  locale?: string;
  verified?: boolean;
  /** Needs the `email` scope. */
  email?: string | null;
  flags?: number;
  premium_type?: number;
  public_flags?: number;
  [field: string]: unknown;
}

/** The CDN URL of the user's avatar, or of the default avatar Discord shows for them. */
export function discordAvatarUrl(profile: Pick<DiscordProfile, "id" | "avatar" | "discriminator">): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png";
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`;
  }
  const index = profile.discriminator === "0" ? Number((BigInt(profile.id) >> 22n) % 6n) : Number(profile.discriminator) % 5;
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`;
}

/** Discord sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Discord(options?: OAuthUserConfig<DiscordProfile>): OAuthPresetConfig<DiscordProfile> {
  return mergeProviderOptions<DiscordProfile>(
    {
      id: "discord",
      name: "Discord",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Discord accounts may have unverified emails; its `verified` field says whether this one is.
      trustEmail: (profile) => profile.verified === true,
      authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: discordAvatarUrl(profile),
      }),
      style: { brandColor: "#5865f2", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "global_name ?? username", email: "email", image: "avatar (CDN URL)" },
  emailTrustedWhen: "`verified` is true",
  docs: "https://discord.com/developers/docs/resources/user#user-object",
};
