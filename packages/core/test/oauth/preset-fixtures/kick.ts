/**
 * Kick: https://docs.kick.com/getting-started/generating-tokens-oauth2-flow (authorization with PKCE,
 * token exchange with body credentials) and https://docs.kick.com/apis/users (`GET /public/v1/users`).
 */
import Kick from "../../../src/providers/kick.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Kick({ authorization: { url: `${origin}/oauth/authorize` }, token: `${origin}/oauth/token`, userinfo: `${origin}/public/v1/users` }),
  authorization: { path: "/oauth/authorize", params: { scope: "user:read" }, checks: ["pkce", "state"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      refresh_token: "NTHKZWJMMTGTNTQ3NI0ZYZQ5LTLKMGETNJLKZDQ3NJC0MZU5",
      expiry: 7200,
      scope: "user:read",
    }),
  },
  routes: {
    "GET /public/v1/users": {
      body: {
        data: [
          {
            email: "streamer@example.com",
            name: "streamer",
            profile_picture: "https://files.kick.com/images/user/1/profile_image.webp",
            user_id: 4377088,
          },
        ],
        message: "OK",
      },
    },
  },
  expected: {
    user: {
      id: "4377088",
      name: "streamer",
      email: "streamer@example.com",
      image: "https://files.kick.com/images/user/1/profile_image.webp",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
