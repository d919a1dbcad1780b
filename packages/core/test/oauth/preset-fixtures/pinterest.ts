/**
 * Pinterest API v5: https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/
 * (authorization, token with Basic client credentials) and https://developers.pinterest.com/docs/api/v5/user_account-get/.
 */
import Pinterest from "../../../src/providers/pinterest.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Pinterest({ authorization: { url: `${origin}/oauth/` }, token: `${origin}/v5/oauth/token`, userinfo: `${origin}/v5/user_account` }),
  authorization: { path: "/oauth/", params: { scope: "user_accounts:read" }, checks: ["state"] },
  token: {
    path: "/v5/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      refresh_token: "pinr.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
      response_type: "authorization_code",
      token_type: "bearer",
      expires_in: 2592000,
      refresh_token_expires_in: 31536000,
      scope: "user_accounts:read",
    }),
  },
  routes: {
    "GET /v5/user_account": {
      body: {
        account_type: "BUSINESS",
        id: "549755885175",
        profile_image: "https://i.pinimg.com/280x280_RS/2b/4c/6d/2b4c6d.jpg",
        website_url: "https://example.com",
        username: "acmecrafts",
        about: "Crafts and more",
        business_name: "Acme Crafts",
        board_count: 12,
        pin_count: 340,
        follower_count: 1200,
        following_count: 80,
        monthly_views: 50000,
      },
    },
  },
  expected: {
    user: { id: "549755885175", name: "Acme Crafts", email: null, image: "https://i.pinimg.com/280x280_RS/2b/4c/6d/2b4c6d.jpg" },
    emailTrusted: false,
  },
} satisfies PresetFixture;
