/**
 * MicrosoftEntraID: a single-tenant issuer (AUTH_MICROSOFT_ENTRA_ID_ISSUER). The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/microsoft-entra-id.json` (shape: https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference).
 */
import MicrosoftEntraID from "../../../src/providers/microsoft-entra-id.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => MicrosoftEntraID({ issuer: `${origin}/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0` }),
  authorization: {
    path: "/b9419818-09af-49c2-b0c3-653adc1f376e/oauth2/v2.0/authorize",
    params: { scope: "openid profile email User.Read" },
    checks: ["pkce", "state", "nonce"],
  },
  token: {
    path: "/b9419818-09af-49c2-b0c3-653adc1f376e/oauth2/v2.0/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0", claims: recordedClaims("microsoft-entra-id") },
  routes: {},
  expected: {
    user: { id: "HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ", name: "Abe Lincoln", email: "AbeLi@microsoft.com", image: null },
    emailTrusted: false,
  },
} satisfies PresetFixture;
