/**
 * Kinde (OpenID Connect): https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/ and https://docs.kinde.com/build/tokens/about-id-tokens/.
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import Kinde from "../../../src/providers/kinde.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Kinde({ issuer: `${origin}` }),
  authorization: { path: "/oauth2/auth", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 86399,
      scope: "openid profile email",
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "kp_c3143a4b50ad43c88e541d9077681782",
      at_hash: "ZmrO4Ur5e4F3wJsJJ-eOHA",
      auth_time: 1700000000,
      email: "sally@example.com",
      email_verified: true,
      family_name: "Sallinger",
      given_name: "Sally",
      name: "Sally Sallinger",
      picture: "https://lh3.googleusercontent.com/a/sally",
      org_codes: ["org_123456789"],
      updated_at: 1700000000,
    },
  },
  routes: {},
  expected: {
    user: {
      id: "kp_c3143a4b50ad43c88e541d9077681782",
      name: "Sally Sallinger",
      email: "sally@example.com",
      image: "https://lh3.googleusercontent.com/a/sally",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
