/**
 * Vercel (OpenID Connect): https://vercel.com/docs/sign-in-with-vercel (discovery at https://vercel.com/.well-known/openid-configuration; ID token with `profile` and `email` claims).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import Vercel from "../../../src/providers/vercel.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Vercel({ issuer: `${origin}` }),
  authorization: { path: "/oauth/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/login/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      scope: "openid profile email",
      expires_in: 3600,
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "user_9a2b3c4d5e6f",
      name: "Vera Cel",
      preferred_username: "veracel",
      email: "vera@example.com",
      email_verified: true,
      picture: "https://vercel.com/api/www/avatar/9a2b3c4d5e6f",
    },
  },
  routes: {},
  expected: {
    user: { id: "user_9a2b3c4d5e6f", name: "Vera Cel", email: "vera@example.com", image: "https://vercel.com/api/www/avatar/9a2b3c4d5e6f" },
    emailTrusted: true,
  },
} satisfies PresetFixture;
