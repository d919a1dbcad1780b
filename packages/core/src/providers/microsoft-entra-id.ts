/**
 * Microsoft Entra ID (OpenID Connect). Register an app in the Entra admin center with the redirect URI
 * `https://<your app>/auth/callback/microsoft-entra-id`; set `AUTH_MICROSOFT_ENTRA_ID_ID` and
 * `AUTH_MICROSOFT_ENTRA_ID_SECRET`.
 *
 * The default issuer, `https://login.microsoftonline.com/common/v2.0`, admits work, school and personal
 * accounts of any tenant: each ID token is validated against its own tenant's issuer (see
 * `oauth/tenant.ts`). To admit one organisation only, set `AUTH_MICROSOFT_ENTRA_ID_ISSUER` to
 * `https://login.microsoftonline.com/<tenant id>/v2.0`.
 *
 * @module providers/microsoft-entra-id
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of an Entra ID v2.0 ID token (https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference). */
export interface MicrosoftEntraIDProfile {
  aud: string;
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  /** The user's subject, unique per application. */
  sub: string;
  /** The user's object id, the same across applications of the tenant. */
  oid: string;
  /** The tenant the user signed in with. */
  tid: string;
  name?: string;
  preferred_username?: string;
  /** Present when the `email` optional claim is configured, or for personal accounts. */
  email?: string;
  ver: "2.0";
  [claim: string]: unknown;
}

/** Microsoft Entra ID sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function MicrosoftEntraID(options?: OAuthUserConfig<MicrosoftEntraIDProfile>): OAuthPresetConfig<MicrosoftEntraIDProfile> {
  return mergeProviderOptions<MicrosoftEntraIDProfile>(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): The `email` claim is a mutable attribute any tenant admin sets without proof (multi-tenant apps see foreign tenants); never trusted.
      // "never", not false: a tenant's token may carry `email_verified: true` (optional claims, B2B guests), which is the same admin's word, not proof.
      trustEmail: "never",
      issuer: "https://login.microsoftonline.com/common/v2.0",
      authorization: { params: { scope: "openid profile email User.Read" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#0072c6", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: null },
  selfHosted: { option: "issuer", env: "AUTH_MICROSOFT_ENTRA_ID_ISSUER" },
  docs: "https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference",
};
