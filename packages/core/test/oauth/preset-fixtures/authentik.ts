/**
 * Authentik: an application issuer. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/authentik.json` (shape: https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/).
 */
import Authentik from "../../../src/providers/authentik.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Authentik({ issuer: `${origin}/application/o/web-app/` }),
  authorization: { path: "/application/o/authorize/", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/application/o/token/",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/application/o/web-app/", claims: recordedClaims("authentik") },
  routes: {},
  expected: {
    user: {
      id: "8b1f6e3d2c7a4b59a1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8",
      name: "authentik Default Admin",
      email: "akadmin@example.com",
      image: null,
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
