/**
 * Azure AD B2C (OpenID Connect). Register an application in the B2C tenant with the redirect URI
 * `https://<your app>/auth/callback/azure-ad-b2c` and create a user flow; set `AUTH_AZURE_AD_B2C_ID`,
 * `AUTH_AZURE_AD_B2C_SECRET` and `AUTH_AZURE_AD_B2C_ISSUER`.
 *
 * The issuer must be the one the user flow's discovery document names, so discovery and ID token
 * validation agree: set the user flow's "Issuer (iss) claim" to the form that carries the policy,
 * `https://<tenant>.b2clogin.com/tfp/<tenant id>/<user flow>/v2.0/`, and use that URL
 * (https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview#claims,
 * https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect).
 *
 * @module providers/azure-ad-b2c
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a B2C ID token (https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview#claims). */
export interface AzureADB2CProfile {
  iss: string;
  aud: string;
  sub: string;
  exp: number;
  iat: number;
  nonce?: string;
  /** The user flow (policy) that issued the token. */
  tfp?: string;
  acr?: string;
  oid?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  /** The addresses of a local account ("Email Addresses" application claim). */
  emails?: string[];
  email?: string;
  /** The identity provider of a federated account. */
  idp?: string;
  [claim: string]: unknown;
}

/** Azure AD B2C sign-in; needs `issuer` (`AUTH_AZURE_AD_B2C_ISSUER`). Options are merged over the defaults. */
export default function AzureADB2C(options?: OAuthUserConfig<AzureADB2CProfile>): OAuthPresetConfig<AzureADB2CProfile> {
  return mergeProviderOptions<AzureADB2CProfile>(
    {
      id: "azure-ad-b2c",
      name: "Azure AD B2C",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Federated accounts bring addresses B2C never checked, and custom policies may skip verification; no claim says which.
      trustEmail: false,
      authorization: { params: { scope: "openid offline_access" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.emails?.[0] ?? profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#0078d4", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name", email: "emails[0] ?? email", image: null },
  selfHosted: { option: "issuer", env: "AUTH_AZURE_AD_B2C_ISSUER", required: true },
  docs: "https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect",
};
