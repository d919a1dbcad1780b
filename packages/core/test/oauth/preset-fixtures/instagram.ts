/**
 * Instagram API with Instagram Login: https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 * (the short-lived token comes wrapped as `{ data: [ { access_token, user_id, permissions } ] }`, with no
 * `token_type`) and https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user (`GET /me`).
 */
import Instagram from "../../../src/providers/instagram.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Instagram({
      authorization: { url: `${origin}/oauth/authorize` },
      token: `${origin}/oauth/access_token`,
      userinfo: { url: `${origin}/me` },
    }),
  authorization: { path: "/oauth/authorize", params: { scope: "instagram_business_basic" }, checks: ["state"] },
  token: {
    path: "/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      data: [{ access_token: accessToken, user_id: "17841405793187218", permissions: "instagram_business_basic" }],
    }),
  },
  routes: {
    "GET /me": {
      body: (request) => {
        if (request.url.searchParams.get("fields") !== "id,user_id,username,name,account_type,profile_picture_url")
          return { error: "fields" };
        return {
          id: "7590282904327",
          user_id: "17841405793187218",
          username: "jaymcgee",
          name: "Jay McGee",
          account_type: "BUSINESS",
          profile_picture_url: "https://scontent.cdninstagram.com/v/t51.2885-19/jaymcgee.jpg",
        };
      },
    },
  },
  expected: {
    user: { id: "7590282904327", name: "Jay McGee", email: null, image: "https://scontent.cdninstagram.com/v/t51.2885-19/jaymcgee.jpg" },
    emailTrusted: false,
  },
} satisfies PresetFixture;
