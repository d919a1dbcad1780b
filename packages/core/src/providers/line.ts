/**
 * LINE Login (OpenID Connect, issuer `https://access.line.me`). Create a LINE Login channel with the
 * callback URL `https://<your app>/auth/callback/line`; set `AUTH_LINE_ID` (channel ID) and
 * `AUTH_LINE_SECRET` (channel secret). For the email, apply for the email permission and add `email`
 * to the scope. Docs: https://developers.line.biz/en/docs/line-login/integrate-line-login/.
 *
 * @module providers/line
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a LINE ID token (https://developers.line.biz/en/docs/line-login/verify-id-token/#payload). */
export interface LineProfile {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time?: number;
  nonce?: string;
  amr?: string[];
  name?: string;
  picture?: string;
  /** With the `email` scope and the permission to ask for it. */
  email?: string;
  [claim: string]: unknown;
}

/** LINE sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Line(options?: OAuthUserConfig<LineProfile>): OAuthPresetConfig<LineProfile> {
  return mergeProviderOptions<LineProfile>(
    {
      id: "line",
      name: "LINE",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): LINE sends no `email_verified` and documents no guarantee for the address.
      trustEmail: false,
      issuer: "https://access.line.me",
      authorization: { params: { scope: "openid profile" } },
      // The documented token request sends client_id and client_secret in the body.
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
      style: { brandColor: "#06c755", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name", email: "email", image: "picture" },
  docs: "https://developers.line.biz/en/docs/line-login/integrate-line-login/",
};
