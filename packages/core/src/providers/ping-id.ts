/**
 * Ping Identity (OpenID Connect). Add an OIDC web application in PingOne with the redirect URI
 * `https://<your app>/auth/callback/ping-id`; set `AUTH_PING_ID_ID`, `AUTH_PING_ID_SECRET` and
 * `AUTH_PING_ID_ISSUER` (`https://auth.pingone.<region>/<environment id>/as`, or a PingFederate issuer).
 *
 * Docs: https://docs.pingidentity.com/pingone/applications/p1_add_app_worker.html
 *
 * @module providers/ping-id
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Ping Identity ID token with the `profile` and `email` scopes (https://apidocs.pingidentity.com/pingone/platform/v1/api/#openid-connectoauth-2). */
export interface PingIdProfile extends IdTokenClaims {
  env?: string;
  org?: string;
}

/** Ping Identity sign-in; needs `issuer` (`AUTH_PING_ID_ISSUER`). Options are merged over the defaults. */
export default function PingId(options?: OAuthUserConfig<PingIdProfile>): OAuthPresetConfig<PingIdProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): Directory admins set the address; the `email_verified` claim decides.
  return issuerOidcPreset<PingIdProfile>(
    {
      id: "ping-id",
      name: "Ping Identity",
      style: { brandColor: "#b3282d", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_PING_ID_ISSUER", required: true },
  docs: "https://docs.pingidentity.com/pingone/applications/p1_add_app_worker.html",
};
