/**
 * Okta: the default custom authorization server. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/okta.json` (shape: https://developer.okta.com/docs/reference/api/oidc/#id-token-claims).
 */
import Okta from "../../../src/providers/okta.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Okta({ issuer: `${origin}/oauth2/default` }),
  authorization: { path: "/oauth2/default/v1/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/default/v1/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/oauth2/default", claims: recordedClaims("okta") },
  routes: {},
  expected: {
    user: { id: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com", image: null },
    emailTrusted: true,
  },
} satisfies PresetFixture;
