/**
 * Cognito: a user pool issuer. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/cognito.json` (shape: https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html).
 */
import Cognito from "../../../src/providers/cognito.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Cognito({ issuer: `${origin}/eu-west-1_example` }),
  authorization: { path: "/oauth2/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/eu-west-1_example", claims: recordedClaims("cognito") },
  routes: {},
  expected: {
    user: { id: "aaaaaaaa-bbbb-cccc-dddd-example", name: "anaya", email: "anaya@example.com", image: null },
    emailTrusted: true,
  },
} satisfies PresetFixture;
