/**
 * PingId (OpenID Connect): https://apidocs.pingidentity.com/pingone/platform/v1/api/#openid-connectoauth-2 (PingOne issuer `https://auth.pingone.<region>/<environment id>/as`).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import PingId from "../../../src/providers/ping-id.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => PingId({ issuer: `${origin}/env-0a7a1b2c/as` }),
  authorization: { path: "/env-0a7a1b2c/as/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/env-0a7a1b2c/as/token",
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
    issuerPath: "/env-0a7a1b2c/as",
    claims: {
      sub: "5a9b7c6d-1e2f-4a3b-8c9d-0e1f2a3b4c5d",
      env: "0a7a1b2c",
      org: "9f8e7d6c",
      given_name: "Pat",
      family_name: "Ping",
      name: "Pat Ping",
      preferred_username: "pat",
      email: "pat@ping.example",
      email_verified: true,
      sid: "s-123",
    },
  },
  routes: {},
  expected: {
    user: { id: "5a9b7c6d-1e2f-4a3b-8c9d-0e1f2a3b4c5d", name: "Pat Ping", email: "pat@ping.example", image: null },
    emailTrusted: true,
  },
} satisfies PresetFixture;
