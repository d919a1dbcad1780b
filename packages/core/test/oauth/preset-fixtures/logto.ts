/**
 * Logto (OpenID Connect): https://docs.logto.io/integrate-logto/third-party-applications/oidc and https://docs.logto.io/concepts/user-data/#oidc-claims (no `name` set: the username is shown).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import Logto from "../../../src/providers/logto.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Logto({ issuer: `${origin}/oidc` }),
  authorization: { path: "/oidc/auth", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oidc/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 3600,
      scope: "openid profile email",
    }),
  },
  oidc: {
    issuerPath: "/oidc",
    claims: { sub: "1x6q4bt0ojd8", username: "logto-user", name: null, picture: null, email: "user@logto.example", email_verified: false },
  },
  routes: {},
  expected: { user: { id: "1x6q4bt0ojd8", name: "logto-user", email: "user@logto.example", image: null }, emailTrusted: false },
} satisfies PresetFixture;
