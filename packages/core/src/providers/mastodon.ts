/**
 * Mastodon (OAuth 2), on the instance you name: `Mastodon({ baseUrl: "https://mastodon.social" })`, or
 * `AUTH_MASTODON_ISSUER` when the preset is passed uncalled (`providers: [Mastodon]`). Without an
 * instance the configuration fails at start-up (`InvalidEndpoints`). Register an application on that
 * instance (`POST /api/v1/apps` or its development settings) with the redirect URI
 * `https://<your app>/auth/callback/mastodon` and the scope `read:accounts`; set `AUTH_MASTODON_ID` and
 * `AUTH_MASTODON_SECRET`. Mastodon returns no email. Endpoints: https://docs.joinmastodon.org/methods/oauth/
 * and https://docs.joinmastodon.org/methods/accounts/#verify_credentials.
 *
 * @module providers/mastodon
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /api/v1/accounts/verify_credentials` (https://docs.joinmastodon.org/entities/Account/). */
export interface MastodonProfile {
  id: string;
  username: string;
  /** `username` on this instance, `username@domain` on others. */
  acct: string;
  display_name: string;
  avatar: string;
  avatar_static?: string;
  url: string;
  locked?: boolean;
  bot?: boolean;
  created_at?: string;
  note?: string;
  [field: string]: unknown;
}

/** Options of the Mastodon preset: any provider option, and the instance. */
export interface MastodonOptions extends OAuthUserConfig<MastodonProfile> {
  /** Root URL of the Mastodon instance (else `issuer`, e.g. from `AUTH_MASTODON_ISSUER`). Required. */
  baseUrl?: string;
}

/** Mastodon sign-in on one instance (`baseUrl` or `issuer`). Options are merged over the defaults. */
export default function Mastodon(options: MastodonOptions = {}): OAuthPresetConfig<MastodonProfile> {
  const { baseUrl, issuer, ...providerOptions } = options;
  const root = (baseUrl ?? issuer)?.replace(/\/+$/, "");
  return mergeProviderOptions<MastodonProfile>(
    {
      id: "mastodon",
      name: "Mastodon",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Mastodon returns no email address.
      trustEmail: false,
      // Without an instance, no endpoints: the start-up assertion names the missing `issuer` / endpoints.
      ...(root
        ? {
            issuer: root,
            authorization: { url: `${root}/oauth/authorize`, params: { scope: "read:accounts" } },
            token: `${root}/oauth/token`,
            userinfo: `${root}/api/v1/accounts/verify_credentials`,
          }
        : { authorization: { params: { scope: "read:accounts" } } }),
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["pkce", "state"],
      profile: (profile) => ({
        id: profile.id,
        name: profile.display_name || profile.username,
        email: null,
        image: profile.avatar ?? null,
      }),
      style: { brandColor: "#6364ff", text: "#fff" },
    },
    providerOptions,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "id", name: "display_name ?? username", email: null, image: "avatar" },
  selfHosted: { option: "baseUrl", env: "AUTH_MASTODON_ISSUER", required: true },
  docs: "https://docs.joinmastodon.org/methods/oauth/",
};
