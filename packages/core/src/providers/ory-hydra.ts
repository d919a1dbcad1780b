/**
 * Ory Hydra (OpenID Connect). Create an OAuth 2 client (`hydra create client --grant-type authorization_code --response-type code
 * --scope openid,profile,email --redirect-uri https://<your app>/auth/callback/ory-hydra`); set
 * `AUTH_ORY_HYDRA_ID`, `AUTH_ORY_HYDRA_SECRET` and `AUTH_ORY_HYDRA_ISSUER` (Hydra's public URL, or your Ory
 * Network project URL). The claims are what your login and consent app puts in the ID token.
 *
 * Docs: https://www.ory.sh/docs/hydra/guides/oauth2-clients
 *
 * @module providers/ory-hydra
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Ory Hydra ID token with the `profile` and `email` scopes (https://www.ory.sh/docs/oauth2-oidc/openid-connect-claims-scope-custom). */
export type OryHydraProfile = IdTokenClaims;

/** Ory Hydra sign-in; needs `issuer` (`AUTH_ORY_HYDRA_ISSUER`). Options are merged over the defaults. */
export default function OryHydra(options?: OAuthUserConfig<OryHydraProfile>): OAuthPresetConfig<OryHydraProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): The claims come from your login/consent app; the `email_verified` claim decides.
  return issuerOidcPreset<OryHydraProfile>(
    {
      id: "ory-hydra",
      name: "Ory Hydra",
      style: { brandColor: "#5528ff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_ORY_HYDRA_ISSUER", required: true },
  docs: "https://www.ory.sh/docs/hydra/guides/oauth2-clients",
};
