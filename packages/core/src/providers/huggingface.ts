/**
 * Hugging Face, "Sign in with Hugging Face" (OpenID Connect, issuer `https://huggingface.co`). Create
 * a connected app in the settings with the redirect URL `https://<your app>/auth/callback/huggingface`;
 * set `AUTH_HUGGINGFACE_ID` and `AUTH_HUGGINGFACE_SECRET`. Docs: https://huggingface.co/docs/hub/oauth.
 *
 * @module providers/huggingface
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Hugging Face ID token (https://huggingface.co/docs/hub/oauth#currently-supported-scopes). */
export interface HuggingFaceProfile {
  iss: string;
  sub: string;
  aud: string;
  name?: string;
  preferred_username?: string;
  profile?: string;
  picture?: string;
  website?: string;
  /** With the `email` scope. */
  email?: string;
  email_verified?: boolean;
  isPro?: boolean;
  orgs?: Array<{ sub: string; name: string; picture: string; preferred_username: string; [field: string]: unknown }>;
  [claim: string]: unknown;
}

/** Hugging Face sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function HuggingFace(options?: OAuthUserConfig<HuggingFaceProfile>): OAuthPresetConfig<HuggingFaceProfile> {
  return mergeProviderOptions<HuggingFaceProfile>(
    {
      id: "huggingface",
      name: "Hugging Face",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Hugging Face sends `email_verified`; that claim decides.
      trustEmail: false,
      issuer: "https://huggingface.co",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#ffd21e", text: "#000" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://huggingface.co/docs/hub/oauth",
};
