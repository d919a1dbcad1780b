/**
 * Sign in with Apple (OpenID Connect, issuer `https://appleid.apple.com`). Configure a Services ID with
 * the return URL `https://<your app>/auth/callback/apple`; `AUTH_APPLE_ID` is the Services ID and
 * `AUTH_APPLE_SECRET` the client secret JWT you sign with your Apple key (it expires after at most six
 * months).
 *
 * Apple posts the callback (`response_mode=form_post`), so the check cookies are `SameSite=None; Secure`
 * and the callback must be served over https. The user's name is only sent on the first sign-in, in the
 * posted `user` field; it is kept in `profile.user`.
 *
 * @module providers/apple
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of an Apple ID token, plus the `user` field Apple posts on the first sign-in. */
export interface AppleProfile {
  iss: "https://appleid.apple.com";
  aud: string;
  iat: number;
  exp: number;
  sub: string;
  nonce?: string;
  nonce_supported?: boolean;
  email?: string;
  /** `true` or `"true"`: Apple only returns verified addresses. */
  email_verified?: boolean | "true" | "false";
  /** Whether `email` is a private relay address. */
  is_private_email?: boolean | "true" | "false";
  real_user_status?: 0 | 1 | 2;
  auth_time?: number;
  /** Posted by Apple on the first sign-in only. */
  user?: { name?: { firstName?: string; lastName?: string }; email?: string };
  [claim: string]: unknown;
}

function fullName(profile: AppleProfile): string | null {
  const name = profile.user?.name;
  const joined = [name?.firstName, name?.lastName].filter(Boolean).join(" ");
  return joined === "" ? null : joined;
}

/** Sign in with Apple. Options are merged over the defaults (`authorization.params` key by key). */
export default function Apple(options?: OAuthUserConfig<AppleProfile>): OAuthPresetConfig<AppleProfile> {
  return mergeProviderOptions<AppleProfile>(
    {
      id: "apple",
      name: "Apple",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Apple sends `email_verified` ("true"); that claim decides, nothing more is assumed.
      trustEmail: false,
      issuer: "https://appleid.apple.com",
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      // Apple's discovery lists no code_challenge_methods_supported: state is what binds the flow.
      checks: ["pkce", "state", "nonce"],
      profile: (profile) => ({ id: profile.sub, name: fullName(profile), email: profile.email ?? null, image: null }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "user.name (first sign-in)", email: "email", image: null },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://developer.apple.com/documentation/signinwithapplerestapi/authenticating-users-with-sign-in-with-apple",
};
