/**
 * DuendeIdentityServer (OpenID Connect): https://docs.duendesoftware.com/identityserver/reference/endpoints/token/ and https://docs.duendesoftware.com/identityserver/fundamentals/claims/ (a self-hosted IdentityServer under a sub-path).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import DuendeIdentityServer from "../../../src/providers/duende-identity-server.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => DuendeIdentityServer({ issuer: `${origin}/identity` }),
  authorization: { path: "/identity/connect/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/identity/connect/token",
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
    issuerPath: "/identity",
    claims: {
      sub: "818727",
      idp: "local",
      amr: ["pwd"],
      auth_time: 1700000000,
      name: "Alice Smith",
      given_name: "Alice",
      family_name: "Smith",
      email: "alice.smith@example.com",
      email_verified: true,
      sid: "8E4D3F2A",
    },
  },
  routes: {},
  expected: { user: { id: "818727", name: "Alice Smith", email: "alice.smith@example.com", image: null }, emailTrusted: true },
} satisfies PresetFixture;
