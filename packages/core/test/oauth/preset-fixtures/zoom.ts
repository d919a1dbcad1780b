/**
 * Zoom: https://developers.zoom.us/docs/integrations/oauth/ (authorize, token with HTTP Basic) and
 * https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId} (`GET /v2/users/me`;
 * `verified: 1`, so the preset vouches for the email).
 */
import Zoom from "../../../src/providers/zoom.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Zoom({ authorization: `${origin}/oauth/authorize`, token: `${origin}/oauth/token`, userinfo: `${origin}/v2/users/me` }),
  authorization: { path: "/oauth/authorize", checks: ["pkce", "state"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      refresh_token: "eyJhbGciOiJIUzUxMiJ9.refresh",
      expires_in: 3599,
      scope: "user:read:user",
    }),
  },
  routes: {
    "GET /v2/users/me": {
      body: {
        id: "KDcuGIm1QgePTO8WbOqwIQ",
        first_name: "Jill",
        last_name: "Chill",
        display_name: "Jill Chill",
        email: "jchill@example.com",
        type: 1,
        role_name: "Owner",
        pmi: 3542471135,
        use_pmi: false,
        timezone: "Asia/Shanghai",
        verified: 1,
        dept: "",
        created_at: "2019-06-01T07:58:03Z",
        pic_url: "https://example.zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/avatar.jpg",
        account_id: "q6gBJVO5TzexKYTb_I2rpg",
        language: "en-US",
        status: "active",
      },
    },
  },
  expected: {
    user: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      name: "Jill Chill",
      email: "jchill@example.com",
      image: "https://example.zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/avatar.jpg",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
