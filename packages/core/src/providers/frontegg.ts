/**
 * Frontegg (OpenID Connect). In the Frontegg portal, add the redirect URL `https://<your app>/auth/callback/frontegg` to the
 * environment's hosted login; set `AUTH_FRONTEGG_ID`, `AUTH_FRONTEGG_SECRET` and `AUTH_FRONTEGG_ISSUER`
 * (the environment's login URL, `https://<app>.frontegg.com`).
 *
 * Docs: https://developers.frontegg.com/guides/authentication/hosted-login/oidc
 *
 * @module providers/frontegg
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig, standardClaimsProfile } from "./oauth.js";

/** The claims of a Frontegg ID token with the `profile` and `email` scopes (https://developers.frontegg.com/guides/authentication/hosted-login/oidc). */
export interface FronteggProfile extends IdTokenClaims {
  tenantId?: string;
  tenantIds?: string[];
  profilePictureUrl?: string;
  roles?: string[];
}

/** Frontegg sign-in; needs `issuer` (`AUTH_FRONTEGG_ISSUER`). Options are merged over the defaults. */
export default function Frontegg(options?: OAuthUserConfig<FronteggProfile>): OAuthPresetConfig<FronteggProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): Frontegg sends `email_verified`; that claim decides.
  return issuerOidcPreset<FronteggProfile>(
    {
      id: "frontegg",
      name: "Frontegg",
      profile: (profile) => ({ ...standardClaimsProfile(profile), image: profile.picture ?? profile.profilePictureUrl ?? null }),
      style: { brandColor: "#4461ff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture ?? profilePictureUrl" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_FRONTEGG_ISSUER", required: true },
  docs: "https://developers.frontegg.com/guides/authentication/hosted-login/oidc",
};
