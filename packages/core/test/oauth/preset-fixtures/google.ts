/**
 * Google: the issuer moved to the fake. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/google.json` (shape: https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload).
 */
import Google from "../../../src/providers/google.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Google({ issuer: `${origin}` }),
  authorization: { path: "/o/oauth2/v2/auth", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "", claims: recordedClaims("google") },
  routes: {},
  expected: {
    user: {
      id: "10769150350006150715113082367",
      name: "Jane Smith",
      email: "jsmith@example.com",
      image: "https://lh3.googleusercontent.com/a/ACg8ocJ7x9QvQ2q-example=s96-c",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
