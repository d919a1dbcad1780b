/**
 * Sign in with Vercel (OpenID Connect). Create an app in your Vercel team's settings with the
 * callback URL `https://<your app>/auth/callback/vercel`; set `AUTH_VERCEL_ID` and `AUTH_VERCEL_SECRET`.
 * Endpoints come from the discovery document of `https://vercel.com`.
 *
 * Docs: https://vercel.com/docs/sign-in-with-vercel/authorization-server-api and
 * https://vercel.com/docs/sign-in-with-vercel/tokens (the ID token's claims)
 *
 * @module providers/vercel
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig, standardClaimsProfile } from "./oauth.js";

/** The claims of a Vercel ID token with the `profile` and `email` scopes (https://vercel.com/docs/sign-in-with-vercel/tokens). */
export interface VercelProfile {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  [claim: string]: unknown;
}

/** Sign in with Vercel. Options are merged over the defaults (`authorization.params` key by key). */
export default function Vercel(options?: OAuthUserConfig<VercelProfile>): OAuthPresetConfig<VercelProfile> {
  return mergeProviderOptions<VercelProfile>(
    {
      id: "vercel",
      name: "Vercel",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Vercel's ID token carries no `email_verified` and its docs promise no verification.
      trustEmail: false,
      issuer: "https://vercel.com",
      authorization: { params: { scope: "openid profile email" } },
      profile: standardClaimsProfile,
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  docs: "https://vercel.com/docs/sign-in-with-vercel",
};
