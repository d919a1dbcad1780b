/**
 * Descope (OpenID Connect): https://docs.descope.com/sso-integrations/oidc (issuer `https://api.descope.com/<project id>`).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import Descope from "../../../src/providers/descope.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Descope({ issuer: `${origin}/P2abcDEF123` }),
  authorization: {
    path: "/oauth2/v1/apps/authorize",
    params: { scope: "openid profile email" },
    checks: ["pkce", "state", "nonce"],
  },
  token: {
    path: "/oauth2/v1/apps/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 600,
      scope: "openid profile email",
    }),
  },
  oidc: {
    issuerPath: "/P2abcDEF123",
    claims: {
      sub: "U2xyzABC789",
      name: "Dee Scope",
      email: "dee@descope.example",
      email_verified: true,
      phone_number: "+15555550100",
      phone_number_verified: false,
      picture: "https://example.com/dee.png",
    },
  },
  routes: {},
  expected: {
    user: { id: "U2xyzABC789", name: "Dee Scope", email: "dee@descope.example", image: "https://example.com/dee.png" },
    emailTrusted: true,
  },
} satisfies PresetFixture;
