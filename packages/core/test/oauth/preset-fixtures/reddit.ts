/**
 * Reddit: https://github.com/reddit-archive/reddit/wiki/OAuth2 (authorization with `state`, token with
 * HTTP Basic) and `GET /api/v1/me` recorded in `test/oauth/fixtures/reddit.json` (https://www.reddit.com/dev/api#GET_api_v1_me).
 */
import Reddit from "../../../src/providers/reddit.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Reddit({
      authorization: { url: `${origin}/api/v1/authorize` },
      token: `${origin}/api/v1/access_token`,
      userinfo: `${origin}/api/v1/me`,
    }),
  authorization: { path: "/api/v1/authorize", params: { scope: "identity" }, checks: ["state"] },
  token: {
    path: "/api/v1/access_token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer", expires_in: 86400, scope: "identity" }),
  },
  routes: { "GET /api/v1/me": { body: recorded("reddit") } },
  expected: {
    user: {
      id: "1w72",
      name: "spez",
      email: null,
      image: "https://styles.redditmedia.com/t5_2x9k4c/styles/profileIcon_snoo.png?width=256&height=256&crop=256:256,smart&s=3a1b2c3d4e5f",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
