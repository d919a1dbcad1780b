/**
 * Frontegg (OpenID Connect): https://developers.frontegg.com/guides/authentication/hosted-login/oidc (Frontegg puts the avatar in `profilePictureUrl`).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import Frontegg from "../../../src/providers/frontegg.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Frontegg({ issuer: `${origin}` }),
  authorization: { path: "/oauth/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", id_token: idToken, expires_in: 86400 }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "f1e2d3c4-b5a6-4789-9abc-def012345678",
      name: "Fran Tegg",
      email: "fran@frontegg.example",
      email_verified: true,
      profilePictureUrl: "https://www.gravatar.com/avatar/fran",
      tenantId: "t-1",
      tenantIds: ["t-1"],
      roles: ["Admin"],
    },
  },
  routes: {},
  expected: {
    user: {
      id: "f1e2d3c4-b5a6-4789-9abc-def012345678",
      name: "Fran Tegg",
      email: "fran@frontegg.example",
      image: "https://www.gravatar.com/avatar/fran",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
