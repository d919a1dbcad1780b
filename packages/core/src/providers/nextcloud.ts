/**
 * Nextcloud (OAuth 2), always self-hosted: pass the instance's URL as `baseUrl` (or set
 * `AUTH_NEXTCLOUD_ISSUER` to it), e.g. `Nextcloud({ baseUrl: "https://cloud.example.com" })`. Add an
 * OAuth 2.0 client under Administration settings → Security with the redirect URI
 * `https://<your app>/auth/callback/nextcloud`; set `AUTH_NEXTCLOUD_ID` and `AUTH_NEXTCLOUD_SECRET`.
 * Without a base URL the configuration is refused at start-up (`InvalidEndpoints` in the log).
 *
 * Docs: https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html and
 * https://docs.nextcloud.com/server/latest/developer_manual/client_apis/OCS/ocs-api-overview.html#user-metadata
 *
 * @module providers/nextcloud
 */

import type { OAuthConfig, TokenSet } from "../types/providers.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { presetJson } from "./preset-request.js";

/** `GET /ocs/v2.php/cloud/user?format=json` (the OCS user metadata of the token's user). */
export interface NextcloudProfile {
  ocs: {
    meta: { status: string; statuscode: number; message?: string };
    data: {
      id: string;
      displayname?: string | null;
      email?: string | null;
      enabled?: boolean;
      language?: string;
      groups?: string[];
      [field: string]: unknown;
    };
  };
  [field: string]: unknown;
}

/** Options of {@link Nextcloud}: the provider options plus the instance's `baseUrl`. */
export type NextcloudOptions = OAuthUserConfig<NextcloudProfile> & {
  /** The Nextcloud instance, e.g. `https://cloud.example.com` (a sub-path install keeps its path). Defaults to `issuer`. */
  baseUrl?: string;
};

/** The instance URL without a trailing slash, or undefined when none is configured. */
function instanceUrl(options: NextcloudOptions): string | undefined {
  const base = options.baseUrl ?? options.issuer;
  return base ? base.replace(/\/+$/, "") : undefined;
}

/** The OCS user endpoint wants the `OCS-APIRequest: true` header besides the bearer token. */
async function fetchNextcloudUser({
  tokens,
  provider,
}: {
  tokens: TokenSet;
  provider: OAuthConfig<NextcloudProfile>;
}): Promise<NextcloudProfile> {
  const url = typeof provider.userinfo === "object" ? provider.userinfo.url : undefined;
  if (!url) throw new Error("The Nextcloud provider has no base URL");
  const profile = await presetJson<NextcloudProfile>(provider, url, {
    headers: { authorization: `Bearer ${tokens.access_token}`, "ocs-apirequest": "true" },
  });
  if (typeof profile?.ocs?.data?.id !== "string") throw new Error("Nextcloud's OCS user answer has no user id");
  return profile;
}

/** Nextcloud sign-in against the instance at `baseUrl`. Other options are merged over the defaults. */
export default function Nextcloud(options: NextcloudOptions = {}): OAuthPresetConfig<NextcloudProfile> {
  const { baseUrl: _baseUrl, ...providerOptions } = options;
  const base = instanceUrl(options);
  return mergeProviderOptions<NextcloudProfile>(
    {
      id: "nextcloud",
      name: "Nextcloud",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The email is whatever the instance's admin or user typed; Nextcloud does not verify it.
      trustEmail: false,
      ...(base
        ? {
            authorization: `${base}/index.php/apps/oauth2/authorize`,
            token: `${base}/index.php/apps/oauth2/api/v1/token`,
            userinfo: { url: `${base}/ocs/v2.php/cloud/user?format=json`, request: fetchNextcloudUser },
          }
        : {}),
      // Nextcloud reads client_id and client_secret from the form body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile, tokens) => {
        const user = profile.ocs.data;
        return {
          id: user.id ?? String(tokens.user_id),
          name: user.displayname || user.id,
          email: user.email || null,
          image: base ? `${base}/index.php/avatar/${encodeURIComponent(user.id)}/512` : null,
        };
      },
      style: { brandColor: "#0082c9", text: "#fff" },
    },
    providerOptions,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "ocs.data.id", name: "ocs.data.displayname", email: "ocs.data.email", image: "/index.php/avatar/<id>/512" },
  selfHosted: { option: "baseUrl", env: "AUTH_NEXTCLOUD_ISSUER", required: true },
  docs: "https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html",
};
