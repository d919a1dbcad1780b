/**
 * Kakao Login: https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#request-token (token
 * exchange, body credentials) and #req-user-info (`GET /v2/user/me`).
 */
import Kakao from "../../../src/providers/kakao.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Kakao({ authorization: `${origin}/oauth/authorize`, token: `${origin}/oauth/token`, userinfo: `${origin}/v2/user/me` }),
  authorization: { path: "/oauth/authorize", checks: ["state"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      token_type: "bearer",
      access_token: accessToken,
      expires_in: 43199,
      refresh_token: "zQ5mY8YBhD6tK2xC3vL1gF7pN0sR9aE4wU6iO2jH8kB",
      refresh_token_expires_in: 5184000,
      scope: "account_email profile_image profile_nickname",
    }),
  },
  routes: {
    "GET /v2/user/me": {
      body: {
        id: 123456789,
        connected_at: "2022-04-11T01:45:28Z",
        kakao_account: {
          profile_nickname_needs_agreement: false,
          profile_image_needs_agreement: false,
          profile: {
            nickname: "홍길동",
            thumbnail_image_url: "http://yyy.kakao.com/.../img_110x110.jpg",
            profile_image_url: "http://yyy.kakao.com/dn/.../img_640x640.jpg",
            is_default_image: false,
          },
          email_needs_agreement: false,
          is_email_valid: true,
          is_email_verified: true,
          email: "sample@sample.com",
        },
        properties: { nickname: "홍길동카톡", custom_field1: "23", custom_field2: "여" },
      },
    },
  },
  expected: {
    user: { id: "123456789", name: "홍길동", email: "sample@sample.com", image: "http://yyy.kakao.com/dn/.../img_640x640.jpg" },
    emailTrusted: true,
  },
} satisfies PresetFixture;
