/**
 * Box: https://developer.box.com/guides/authentication/oauth2/without-sdk/ (token exchange, body
 * credentials) and https://developer.box.com/reference/get-users-me/ (the user object).
 */
import Box from "../../../src/providers/box.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Box({ authorization: `${origin}/api/oauth2/authorize`, token: `${origin}/oauth2/token`, userinfo: `${origin}/2.0/users/me` }),
  authorization: { path: "/api/oauth2/authorize", checks: ["state"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      expires_in: 3600,
      restricted_to: [],
      refresh_token: "J7rxTiWOHMoSC1isKZKBZWizoRXjkQzig5C6jFgCVJ9bUnsUfGMinKBDLZWP9BgR",
      token_type: "bearer",
    }),
  },
  routes: {
    "GET /2.0/users/me": {
      body: {
        id: "11446498",
        type: "user",
        address: "900 Jefferson Ave, Redwood City, CA 94063",
        avatar_url: "https://www.box.com/api/avatar/large/181216415",
        created_at: "2012-12-12T10:53:43-08:00",
        job_title: "CEO",
        language: "en",
        login: "ceo@example.com",
        max_upload_size: 2147483648,
        modified_at: "2012-12-12T10:53:43-08:00",
        name: "Aaron Levie",
        phone: "6509241374",
        space_amount: 11345156112,
        space_used: 1237009912,
        status: "active",
        timezone: "Africa/Bujumbura",
      },
    },
  },
  expected: {
    user: { id: "11446498", name: "Aaron Levie", email: "ceo@example.com", image: "https://www.box.com/api/avatar/large/181216415" },
    emailTrusted: false,
  },
} satisfies PresetFixture;
