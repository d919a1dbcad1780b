/**
 * Sign in with Apple: https://developer.apple.com/documentation/signinwithapplerestapi/request-an-authorization-to-the-sign-in-with-apple-server
 * (`response_mode=form_post`: the response, and on the first sign-in the user's name as `user`, is
 * posted to the callback), https://developer.apple.com/documentation/signinwithapplerestapi/generate-and-validate-tokens
 * (body client credentials) and the ID token claims recorded in `test/oauth/fixtures/apple.json`.
 */
import Apple from "../../../src/providers/apple.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

const { user, ...claims } = recordedClaims("apple");

export default {
  provider: (origin) => Apple({ issuer: origin }),
  authorization: {
    path: "/auth/authorize",
    params: { scope: "name email", response_mode: "form_post" },
    checks: ["pkce", "state", "nonce"],
    callbackParams: { user: JSON.stringify(user) },
  },
  token: {
    path: "/auth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: "r4c1e2b3a4d5e6f7.0.mrwxq.Xy9w8v7u6t5s4r3q2p1o",
      id_token: idToken,
    }),
  },
  oidc: { issuerPath: "", claims },
  routes: {},
  expected: {
    user: {
      id: "001234.9f3c2b7e4a1d4c6f8e0a2b4c6d8e0f12.1234",
      name: "Tim Apple",
      email: "x4k2p9qz7m@privaterelay.appleid.com",
      image: null,
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
