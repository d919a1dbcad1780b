/**
 * Spotify: https://developer.spotify.com/documentation/web-api/tutorials/code-flow (token with HTTP
 * Basic) and `GET /v1/me` recorded in `test/oauth/fixtures/spotify.json`
 * (https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile).
 */
import Spotify from "../../../src/providers/spotify.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Spotify({ authorization: { url: `${origin}/authorize` }, token: `${origin}/api/token`, userinfo: `${origin}/v1/me` }),
  authorization: { path: "/authorize", params: { scope: "user-read-email" }, checks: ["pkce", "state"] },
  token: {
    path: "/api/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      scope: "user-read-email",
      expires_in: 3600,
      refresh_token: "AQDcJ5Vb3uJz0YJ8kIj7v0hXKzU6w4a",
    }),
  },
  routes: { "GET /v1/me": { body: recorded("spotify") } },
  expected: {
    user: {
      id: "lucasberg",
      name: "Lucas Berg",
      email: "lucas.berg@example.com",
      image: "https://i.scdn.co/image/ab67757000003b82example300",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
