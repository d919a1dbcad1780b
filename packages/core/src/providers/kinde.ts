/**
 * Kinde (OpenID Connect). Create a back-end web application in Kinde with the callback URL
 * `https://<your app>/auth/callback/kinde`; set `AUTH_KINDE_ID`, `AUTH_KINDE_SECRET` and `AUTH_KINDE_ISSUER`
 * (your Kinde domain, `https://<business>.kinde.com`, or a custom domain).
 *
 * Docs: https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 *
 * @module providers/kinde
 */
import type { PresetMeta } from "./meta.js";
import { type IdTokenClaims, issuerOidcPreset, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Kinde ID token with the `profile` and `email` scopes (https://docs.kinde.com/build/tokens/about-id-tokens/). */
export interface KindeProfile extends IdTokenClaims {
  org_codes?: string[];
  updated_at?: number;
}

/** Kinde sign-in; needs `issuer` (`AUTH_KINDE_ISSUER`). Options are merged over the defaults. */
export default function Kinde(options?: OAuthUserConfig<KindeProfile>): OAuthPresetConfig<KindeProfile> {
  // trustEmail false (see SECURITY.md, "Identity"): Kinde sends `email_verified`; that claim decides.
  return issuerOidcPreset<KindeProfile>(
    {
      id: "kinde",
      name: "Kinde",
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_KINDE_ISSUER", required: true },
  docs: "https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/",
};
