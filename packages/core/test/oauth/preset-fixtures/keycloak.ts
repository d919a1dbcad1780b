/**
 * Keycloak: a realm issuer on a self-hosted server. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/keycloak.json` (shape: https://www.keycloak.org/docs/latest/server_admin/#_oidc).
 */
import Keycloak from "../../../src/providers/keycloak.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Keycloak({ issuer: `${origin}/realms/acme` }),
  authorization: {
    path: "/realms/acme/protocol/openid-connect/auth",
    params: { scope: "openid profile email" },
    checks: ["pkce", "state", "nonce"],
  },
  token: {
    path: "/realms/acme/protocol/openid-connect/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/realms/acme", claims: recordedClaims("keycloak") },
  routes: {},
  expected: {
    user: { id: "f1c8b1b2-5c0e-4f0a-9a8b-3d2e1f0a9b8c", name: "mkowalski", email: "maria.kowalski@example.com", image: null },
    emailTrusted: true,
  },
} satisfies PresetFixture;
