/**
 * LinkedIn: Sign In with LinkedIn using OpenID Connect. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/linkedin.json` (shape: https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2).
 */
import LinkedIn from "../../../src/providers/linkedin.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => LinkedIn({ issuer: `${origin}/oauth` }),
  authorization: { path: "/oauth/v2/authorization", params: { scope: "openid profile email" }, checks: ["state"] },
  token: {
    path: "/oauth/v2/accessToken",
    clientAuth: "client_secret_post",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/oauth", claims: recordedClaims("linkedin") },
  routes: {},
  expected: {
    user: {
      id: "782bbtaQ",
      name: "John Doe",
      email: "doe@email.com",
      image: "https://media.licdn.com/dms/image/C5F03AQHqK8v1wb7d7g/profile-displayphoto-shrink_100_100/0/1516256654000",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
