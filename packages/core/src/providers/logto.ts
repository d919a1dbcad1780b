/**
 * Logto (OpenID Connect). Create a "Traditional web" application in Logto with the redirect URI
 * `https://<your app>/auth/callback/logto`; set `AUTH_LOGTO_ID`, `AUTH_LOGTO_SECRET` and `AUTH_LOGTO_ISSUER`
 * (`https://<tenant>.logto.app/oidc`, or `<your Logto endpoint>/oidc` when self-hosted).
 *
 * Docs: https://docs.logto.io/integrate-logto/third-party-applications/oidc
 *
 * @module providers/logto
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig, standardClaimsProfile } from "./oauth.js";

/** The claims of a Logto ID token with the `profile` and `email` scopes (https://docs.logto.io/concepts/user-data/#oidc-claims). */
export interface LogtoProfile extends IdTokenClaims {
  username?: string | null;
  phone_number?: string | null;
  phone_number_verified?: boolean;
}

/** Logto sign-in; needs `issuer` (`AUTH_LOGTO_ISSUER`). Options are merged over the defaults. */
export default function Logto(options?: OAuthUserConfig<LogtoProfile>): OAuthPresetConfig<LogtoProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): Logto sends `email_verified`; that claim decides.
  return issuerOidcPreset<LogtoProfile>(
    {
      id: "logto",
      name: "Logto",
      profile: (profile) => ({ ...standardClaimsProfile(profile), name: profile.name ?? profile.username ?? null }),
      style: { brandColor: "#6a5be6", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_LOGTO_ISSUER", required: true },
  docs: "https://docs.logto.io/integrate-logto/third-party-applications/oidc",
};
