/**
 * Mastodon on an instance at the fake (`baseUrl`): https://docs.joinmastodon.org/methods/oauth/
 * (authorize, token with body credentials) and https://docs.joinmastodon.org/methods/accounts/#verify_credentials.
 */
import Mastodon from "../../../src/providers/mastodon.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  title: "mastodon (instance baseUrl)",
  provider: (origin) => Mastodon({ baseUrl: origin }),
  authorization: { path: "/oauth/authorize", params: { scope: "read:accounts" }, checks: ["pkce", "state"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "Bearer", scope: "read:accounts", created_at: 1573979017 }),
  },
  routes: {
    "GET /api/v1/accounts/verify_credentials": {
      body: {
        id: "14715",
        username: "trwnh",
        acct: "trwnh",
        display_name: "infinite love ⴳ",
        locked: false,
        bot: false,
        created_at: "2016-11-24T10:02:12.085Z",
        note: "<p>i have approximate knowledge of many things.</p>",
        url: "https://mastodon.social/@trwnh",
        avatar: "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
        avatar_static: "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
        followers_count: 821,
        following_count: 178,
        statuses_count: 33120,
        source: { privacy: "public", sensitive: false, language: "", note: "", fields: [] },
      },
    },
  },
  expected: {
    user: {
      id: "14715",
      name: "infinite love ⴳ",
      email: null,
      image: "https://files.mastodon.social/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
