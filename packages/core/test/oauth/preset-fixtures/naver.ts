/**
 * Naver Login: https://developers.naver.com/docs/login/api/api.md (authorization and token exchange
 * with `client_id` / `client_secret` parameters) and https://developers.naver.com/docs/login/profile/profile.md.
 */
import Naver from "../../../src/providers/naver.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Naver({ authorization: `${origin}/oauth2.0/authorize`, token: `${origin}/oauth2.0/token`, userinfo: `${origin}/v1/nid/me` }),
  authorization: { path: "/oauth2.0/authorize", checks: ["state"] },
  token: {
    path: "/oauth2.0/token",
    clientAuth: "client_secret_post",
    // Naver documents expires_in as a string.
    response: ({ accessToken }) => ({
      access_token: accessToken,
      refresh_token: "c8ceMEJisO4Se7uGisHoX0f5JEii7JnipglQipkOn5Zp3tyP7dHQoP0zNKHUq2gY",
      token_type: "bearer",
      expires_in: "3600",
    }),
  },
  routes: {
    "GET /v1/nid/me": {
      body: {
        resultcode: "00",
        message: "success",
        response: {
          email: "openapi@naver.com",
          nickname: "OpenAPI",
          profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
          age: "40-49",
          gender: "F",
          id: "32742776",
          name: "오픈 API",
          birthday: "10-01",
          birthyear: "1900",
          mobile: "010-0000-0000",
        },
      },
    },
  },
  expected: {
    user: {
      id: "32742776",
      name: "OpenAPI",
      email: "openapi@naver.com",
      image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
