/**
 * Sign in with Vercel (OpenID Connect): endpoints as advertised at https://vercel.com/.well-known/openid-configuration
 * (https://vercel.com/docs/sign-in-with-vercel/authorization-server-api: `/oauth/authorize`, token at
 * `/login/oauth/token`), and the ID token payload of https://vercel.com/docs/sign-in-with-vercel/tokens,
 * which has no `email_verified`: the email does not reach the user.
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import Vercel from "../../../src/providers/vercel.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Vercel({ issuer: origin }),
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
      refresh_token: "vercel-refresh-token",
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "345e869043f1e55f8bdc837c",
      jti: "50e67781-c8b6-4391-98d1-89d755bb095a",
      name: "John Doe",
      preferred_username: "john-doe",
      picture: "https://api.vercel.com/www/avatar/00159aa4c88348dedc91a456b457d1baa48df6d",
      email: "user@example.com",
    },
  },
  routes: {},
  expected: {
    user: {
      id: "345e869043f1e55f8bdc837c",
      name: "John Doe",
      email: "user@example.com",
      image: "https://api.vercel.com/www/avatar/00159aa4c88348dedc91a456b457d1baa48df6d",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
