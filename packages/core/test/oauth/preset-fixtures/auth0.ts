/**
 * Auth0: a tenant issuer (trailing slash), its endpoints. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/auth0.json` (shape: https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure).
 */
import Auth0 from "../../../src/providers/auth0.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Auth0({ issuer: `${origin}/` }),
  authorization: { path: "/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/", claims: recordedClaims("auth0") },
  routes: {},
  expected: {
    user: {
      id: "auth0|65d1f2c3b4a5968778695a4b",
      name: "Jane Doe",
      email: "jane.doe@example.com",
      image: "https://s.gravatar.com/avatar/5b4bd7c1ba0e0a6e3e6b5c5d5f0e3f1a?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fjd.png",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
