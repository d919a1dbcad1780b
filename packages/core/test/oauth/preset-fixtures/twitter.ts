/**
 * X (Twitter) OAuth 2 with PKCE: https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/user-access-token
 * (token with HTTP Basic for confidential clients) and `GET /2/users/me` recorded in
 * `test/oauth/fixtures/twitter.json` (https://docs.x.com/x-api/users/user-lookup-me).
 */
import Twitter from "../../../src/providers/twitter.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Twitter({
      authorization: { url: `${origin}/i/oauth2/authorize` },
      token: `${origin}/2/oauth2/token`,
      userinfo: { url: `${origin}/2/users/me` },
    }),
  authorization: { path: "/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" }, checks: ["pkce", "state"] },
  token: {
    path: "/2/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      token_type: "bearer",
      expires_in: 7200,
      access_token: accessToken,
      scope: "users.read tweet.read offline.access",
      refresh_token: "bWRWeVJHNmhBMnNxYmdrZWZfamJLUkJpOVZ5bmNUT0Fs",
    }),
  },
  routes: {
    "GET /2/users/me": {
      body: (request) =>
        request.url.searchParams.get("user.fields") === "profile_image_url" ? recorded("twitter") : { errors: [{ message: "fields" }] },
    },
  },
  expected: {
    user: {
      id: "2244994945",
      name: "X Dev",
      email: null,
      image: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
