/**
 * Amazon Cognito user pools (OpenID Connect). Create an app client with a client secret, the allowed
 * callback URL `https://<your app>/auth/callback/cognito` and the scopes `openid profile email`; set
 * `AUTH_COGNITO_ID`, `AUTH_COGNITO_SECRET` and `AUTH_COGNITO_ISSUER`
 * (`https://cognito-idp.<region>.amazonaws.com/<user pool id>`).
 *
 * @module providers/cognito
 */

import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Cognito ID token (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html). */
export interface CognitoProfile {
  sub: string;
  aud: string;
  iss: string;
  token_use: "id";
  auth_time: number;
  exp: number;
  iat: number;
  jti?: string;
  origin_jti?: string;
  event_id?: string;
  nonce?: string;
  at_hash?: string;
  "cognito:username": string;
  "cognito:groups"?: string[];
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  phone_number?: string;
  [claim: string]: unknown;
}

/** Cognito sign-in; needs `issuer` (`AUTH_COGNITO_ISSUER`). Options are merged over the defaults. */
export default function Cognito(options?: OAuthUserConfig<CognitoProfile>): OAuthPresetConfig<CognitoProfile> {
  return mergeProviderOptions<CognitoProfile>(
    {
      id: "cognito",
      name: "Cognito",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): User pools may hold unverified addresses; the `email_verified` claim decides.
      trustEmail: false,
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? profile["cognito:username"],
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#c17b9e", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username ?? cognito:username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_COGNITO_ISSUER", required: true },
  docs: "https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html",
};
