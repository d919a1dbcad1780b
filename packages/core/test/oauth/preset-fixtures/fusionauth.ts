/**
 * FusionAuth (OpenID Connect): https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints and https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token.
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import FusionAuth from "../../../src/providers/fusionauth.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => FusionAuth({ issuer: `${origin}` }),
  authorization: { path: "/oauth2/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 3599,
      refresh_token: "ze9fi6Y9sMSf3yWp3aaO2w7AMav2MFdiMIi2GObrAi-i7q0BQSKrRA",
      userId: "2a106a43-7a4f-4b4b-9b2a-4b8c1b0e5e3f",
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "2a106a43-7a4f-4b4b-9b2a-4b8c1b0e5e3f",
      applicationId: "85a03867-dccf-4882-adde-1a79aeec50df",
      authenticationType: "PASSWORD",
      email: "richard@example.com",
      email_verified: true,
      name: "Richard Hendricks",
      preferred_username: "richard",
      picture: "https://example.com/richard.png",
      roles: ["user"],
      auth_time: 1700000000,
      tid: "30663132-6464-6665-3032-326466613934",
    },
  },
  routes: {},
  expected: {
    user: {
      id: "2a106a43-7a4f-4b4b-9b2a-4b8c1b0e5e3f",
      name: "Richard Hendricks",
      email: "richard@example.com",
      image: "https://example.com/richard.png",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
