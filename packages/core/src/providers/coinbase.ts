/**
 * Coinbase (OAuth 2, "Sign in with Coinbase"). Create an OAuth client in the Coinbase Developer
 * Platform with the redirect URI `https://<your app>/auth/callback/coinbase`; set `AUTH_COINBASE_ID`
 * and `AUTH_COINBASE_SECRET`. Endpoints: https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations.
 *
 * @module providers/coinbase
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET https://api.coinbase.com/v2/user` (https://docs.cdp.coinbase.com/coinbase-app/docs/api-users#show-current-user). */
export interface CoinbaseProfile {
  data: {
    id: string;
    name: string | null;
    username: string | null;
    profile_location?: string | null;
    profile_bio?: string | null;
    profile_url?: string | null;
    avatar_url: string | null;
    resource: "user";
    resource_path: string;
    /** Only with the `wallet:user:email` scope. */
    email?: string;
  };
  [field: string]: unknown;
}

/** Coinbase sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Coinbase(options?: OAuthUserConfig<CoinbaseProfile>): OAuthPresetConfig<CoinbaseProfile> {
  return mergeProviderOptions<CoinbaseProfile>(
    {
      id: "coinbase",
      name: "Coinbase",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Coinbase documents no verification guarantee for the returned address, and sends no claim.
      trustEmail: false,
      authorization: { url: "https://login.coinbase.com/oauth2/auth", params: { scope: "wallet:user:read wallet:user:email" } },
      token: "https://login.coinbase.com/oauth2/token",
      userinfo: "https://api.coinbase.com/v2/user",
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: ({ data }) => ({ id: data.id, name: data.name ?? data.username, email: data.email ?? null, image: data.avatar_url }),
      style: { brandColor: "#0052ff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "data.id", name: "data.name ?? data.username", email: "data.email", image: "data.avatar_url" },
  docs: "https://docs.cdp.coinbase.com/coinbase-app/docs/api-users",
};
