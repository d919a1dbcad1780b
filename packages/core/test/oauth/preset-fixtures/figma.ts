/**
 * Figma: https://www.figma.com/developers/api#oauth2 (token exchange with Basic client credentials; the
 * documented response has `user_id` and no `token_type`) and https://www.figma.com/developers/api#get-me-endpoint.
 */
import Figma from "../../../src/providers/figma.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Figma({ authorization: { url: `${origin}/oauth` }, token: `${origin}/v1/oauth/token`, userinfo: `${origin}/v1/me` }),
  authorization: { path: "/oauth", params: { scope: "current_user:read" }, checks: ["state"] },
  token: {
    path: "/v1/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      user_id_string: "1089214723817648123",
      access_token: accessToken,
      refresh_token: "figr_hWvL3ZJxq2UQ2fMxD4a0c6e2c1B4",
      expires_in: 7776000,
    }),
  },
  routes: {
    "GET /v1/me": {
      body: {
        id: "1089214723817648123",
        email: "designer@example.com",
        handle: "Dana Designer",
        img_url: "https://s3-alpha.figma.com/profile/0c1e4d0a-1f5b-4b8e-9b0e-1f5b4b8e9b0e",
      },
    },
  },
  expected: {
    user: {
      id: "1089214723817648123",
      name: "Dana Designer",
      email: "designer@example.com",
      image: "https://s3-alpha.figma.com/profile/0c1e4d0a-1f5b-4b8e-9b0e-1f5b4b8e9b0e",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
