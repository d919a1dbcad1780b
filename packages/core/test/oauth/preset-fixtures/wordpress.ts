/**
 * WordPress.com: https://developer.wordpress.com/docs/oauth2/ (authorize, token with the client
 * credentials in the form body, answering `blog_id`/`blog_url` besides the token) and
 * https://developer.wordpress.com/docs/api/1.1/get/me/ (`email_verified: true`, so the email is vouched for).
 */
import WordPress from "../../../src/providers/wordpress.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    WordPress({
      authorization: { url: `${origin}/oauth2/authorize` },
      token: `${origin}/oauth2/token`,
      userinfo: `${origin}/rest/v1/me`,
    }),
  authorization: { path: "/oauth2/authorize", params: { scope: "auth" }, checks: ["state"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer", blog_id: "0", blog_url: null, scope: "auth" }),
  },
  routes: {
    "GET /rest/v1/me": {
      body: {
        ID: 12345678,
        display_name: "Matt Example",
        username: "mattexample",
        email: "matt@example.com",
        primary_blog: 4567,
        primary_blog_url: "https://mattexample.wordpress.com",
        language: "en",
        token_site_id: false,
        token_scope: ["auth"],
        avatar_URL: "https://0.gravatar.com/avatar/3a7d0d0d5b2a2c1b0d0a0e0f0a0b0c0d?s=96&d=identicon",
        profile_URL: "https://gravatar.com/mattexample",
        verified: true,
        email_verified: true,
        date: "2012-01-01T00:00:00+00:00",
        site_count: 1,
        visible_site_count: 1,
        has_unseen_notes: false,
      },
    },
  },
  expected: {
    user: {
      id: "12345678",
      name: "Matt Example",
      email: "matt@example.com",
      image: "https://0.gravatar.com/avatar/3a7d0d0d5b2a2c1b0d0a0e0f0a0b0c0d?s=96&d=identicon",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
