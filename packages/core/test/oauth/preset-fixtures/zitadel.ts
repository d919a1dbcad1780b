/**
 * Zitadel: an instance issuer. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/zitadel.json` (shape: https://zitadel.com/docs/apis/openidoauth/claims).
 */
import Zitadel from "../../../src/providers/zitadel.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Zitadel({ issuer: `${origin}` }),
  authorization: { path: "/oauth/v2/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth/v2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "", claims: recordedClaims("zitadel") },
  routes: {},
  expected: {
    user: { id: "288734523436384307", name: "Road Runner", email: "road.runner@acme.com", image: null },
    emailTrusted: true,
  },
} satisfies PresetFixture;
