/**
 * Patreon (OAuth 2). Register a client at https://www.patreon.com/portal/registration/register-clients
 * with the redirect URI `https://<your app>/auth/callback/patreon`; set `AUTH_PATREON_ID` and
 * `AUTH_PATREON_SECRET`. Endpoints: https://docs.patreon.com/#oauth.
 *
 * @module providers/patreon
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /api/oauth2/v2/identity?fields[user]=…` (https://docs.patreon.com/#get-api-oauth2-v2-identity). */
export interface PatreonProfile {
  data: {
    id: string;
    type: "user";
    attributes: {
      full_name?: string;
      /** With the `identity[email]` scope. */
      email?: string;
      is_email_verified?: boolean;
      image_url?: string;
      [attribute: string]: unknown;
    };
  };
  links?: { self: string };
  [field: string]: unknown;
}

/** Patreon sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Patreon(options?: OAuthUserConfig<PatreonProfile>): OAuthPresetConfig<PatreonProfile> {
  return mergeProviderOptions<PatreonProfile>(
    {
      id: "patreon",
      name: "Patreon",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Patreon says per user whether the address is verified (`is_email_verified`).
      trustEmail: (profile) => profile.data.attributes.is_email_verified === true,
      authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
      token: "https://www.patreon.com/api/oauth2/token",
      userinfo: {
        url: "https://www.patreon.com/api/oauth2/v2/identity",
        params: { "fields[user]": "email,full_name,image_url,is_email_verified" },
      },
      // The documented token request sends client_id and client_secret in the body; no PKCE.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: ({ data }) => ({
        id: data.id,
        name: data.attributes.full_name ?? null,
        email: data.attributes.email ?? null,
        image: data.attributes.image_url ?? null,
      }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "data.id", name: "data.attributes.full_name", email: "data.attributes.email", image: "data.attributes.image_url" },
  emailTrustedWhen: "`is_email_verified` is true",
  docs: "https://docs.patreon.com/#get-api-oauth2-v2-identity",
};
