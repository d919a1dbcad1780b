/**
 * Slack: Sign in with Slack. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/slack.json` (shape: https://api.slack.com/authentication/sign-in-with-slack).
 */
import Slack from "../../../src/providers/slack.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Slack({ issuer: `${origin}` }),
  authorization: { path: "/openid/connect/authorize", params: { scope: "openid profile email" }, checks: ["state", "nonce"] },
  token: {
    path: "/api/openid.connect.token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "", claims: recordedClaims("slack") },
  routes: {},
  expected: {
    user: { id: "U0R7MFMJM", name: "krane", email: "krane@slack-corp.com", image: "https://secure.gravatar.com/avatar/c6.png" },
    emailTrusted: true,
  },
} satisfies PresetFixture;
