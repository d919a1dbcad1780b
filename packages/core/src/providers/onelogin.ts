/**
 * OneLogin (OpenID Connect). Add an "OpenId Connect (OIDC)" application in OneLogin with the redirect URI
 * `https://<your app>/auth/callback/onelogin` and token endpoint authentication "Basic"; set
 * `AUTH_ONELOGIN_ID`, `AUTH_ONELOGIN_SECRET` and `AUTH_ONELOGIN_ISSUER` (`https://<subdomain>.onelogin.com/oidc/2`).
 *
 * Docs: https://developers.onelogin.com/openid-connect
 *
 * @module providers/onelogin
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a OneLogin ID token with the `profile` and `email` scopes (https://developers.onelogin.com/openid-connect/api/id-token). */
export interface OneLoginProfile extends IdTokenClaims {
  groups?: string[];
  params?: Record<string, unknown>;
}

/** OneLogin sign-in; needs `issuer` (`AUTH_ONELOGIN_ISSUER`). Options are merged over the defaults. */
export default function OneLogin(options?: OAuthUserConfig<OneLoginProfile>): OAuthPresetConfig<OneLoginProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): Directory admins set the address; OneLogin documents no verification. The `email_verified` claim decides when sent.
  return issuerOidcPreset<OneLoginProfile>(
    {
      id: "onelogin",
      name: "OneLogin",
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_ONELOGIN_ISSUER", required: true },
  docs: "https://developers.onelogin.com/openid-connect",
};
