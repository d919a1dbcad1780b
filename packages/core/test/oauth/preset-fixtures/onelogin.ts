/**
 * OneLogin (OpenID Connect): https://developers.onelogin.com/openid-connect and https://developers.onelogin.com/openid-connect/api/id-token.
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import OneLogin from "../../../src/providers/onelogin.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => OneLogin({ issuer: `${origin}/oidc/2` }),
  authorization: { path: "/oidc/2/auth", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oidc/2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 2400,
      scope: "openid profile email",
    }),
  },
  oidc: {
    issuerPath: "/oidc/2",
    claims: {
      sub: "87654321",
      email: "kelly@onelogin.example",
      preferred_username: "kelly",
      name: "Kelly Example",
      given_name: "Kelly",
      family_name: "Example",
      groups: ["Employees"],
      params: {},
      sid: "a1b2c3d4",
    },
  },
  routes: {},
  expected: { user: { id: "87654321", name: "Kelly Example", email: "kelly@onelogin.example", image: null }, emailTrusted: false },
} satisfies PresetFixture;
