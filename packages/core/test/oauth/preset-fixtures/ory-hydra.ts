/**
 * OryHydra (OpenID Connect): https://www.ory.sh/docs/hydra/guides/oauth2-clients and https://www.ory.sh/docs/oauth2-oidc/openid-connect-claims-scope-custom (claims from the consent app's session).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import OryHydra from "../../../src/providers/ory-hydra.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => OryHydra({ issuer: `${origin}` }),
  authorization: { path: "/oauth2/auth", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 3599,
      scope: "openid profile email",
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "b2c4a7d0-6b1e-4f1e-9c3c-1d0b5e3a9f10",
      amr: ["pwd"],
      rat: 1700000000,
      sid: "2f8e3b0c-7d1a-4e5b-8c9d-0a1b2c3d4e5f",
      email: "ory@example.com",
      email_verified: true,
      name: "Ory User",
    },
  },
  routes: {},
  expected: {
    user: { id: "b2c4a7d0-6b1e-4f1e-9c3c-1d0b5e3a9f10", name: "Ory User", email: "ory@example.com", image: null },
    emailTrusted: true,
  },
} satisfies PresetFixture;
