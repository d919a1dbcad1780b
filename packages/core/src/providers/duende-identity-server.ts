/**
 * Duende IdentityServer (OpenID Connect). Add a client with `AllowedGrantTypes = GrantTypes.Code`, `RequirePkce = true`, the scopes
 * `openid profile email` and the redirect URI `https://<your app>/auth/callback/duende-identity-server`;
 * set `AUTH_DUENDE_IDENTITY_SERVER_ID`, `AUTH_DUENDE_IDENTITY_SERVER_SECRET` and
 * `AUTH_DUENDE_IDENTITY_SERVER_ISSUER` (your IdentityServer's URL). Self-hosted by design.
 *
 * Docs: https://docs.duendesoftware.com/identityserver/quickstarts/2-interactive/
 *
 * @module providers/duende-identity-server
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Duende IdentityServer ID token with the `profile` and `email` scopes (https://docs.duendesoftware.com/identityserver/fundamentals/claims/). */
export interface DuendeIdentityServerProfile extends IdTokenClaims {
  idp?: string;
  amr?: string[];
}

/** Duende IdentityServer sign-in; needs `issuer` (`AUTH_DUENDE_IDENTITY_SERVER_ISSUER`). Options are merged over the defaults. */
export default function DuendeIdentityServer(
  options?: OAuthUserConfig<DuendeIdentityServerProfile>,
): OAuthPresetConfig<DuendeIdentityServerProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): The claims are what your profile service issues; the `email_verified` claim decides.
  return issuerOidcPreset<DuendeIdentityServerProfile>(
    {
      id: "duende-identity-server",
      name: "Duende IdentityServer",
      style: { brandColor: "#1c6bb0", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_DUENDE_IDENTITY_SERVER_ISSUER", required: true },
  docs: "https://docs.duendesoftware.com/identityserver/quickstarts/2-interactive/",
};
