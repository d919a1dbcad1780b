/**
 * GitLab, self-managed: the preset's `baseUrl` (with a path, as a relative-URL install has) moves the
 * authorization, token and user endpoints to the fake. Shapes: https://docs.gitlab.com/api/oauth2/
 * (token response) and https://docs.gitlab.com/api/users/#for-normal-users (`GET /api/v4/user`).
 */
import GitLab from "../../../src/providers/gitlab.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  title: "gitlab (self-managed baseUrl)",
  provider: (origin) => GitLab({ baseUrl: `${origin}/gitlab/` }),
  authorization: { path: "/gitlab/oauth/authorize", params: { scope: "read_user" }, checks: ["pkce", "state"] },
  token: {
    path: "/gitlab/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 7200,
      refresh_token: "8257e65c97202ed1726cf9571600918f3bffb2544b26e00a61df9897668c33a1",
      scope: "read_user",
      created_at: 1607635748,
    }),
  },
  routes: { "GET /gitlab/api/v4/user": { body: recorded("gitlab") } },
  expected: {
    // GitLab does not say whether the address was confirmed (self-managed instances may skip it).
    user: {
      id: "1",
      name: "John Smith",
      email: "john@example.com",
      image: "https://secure.gravatar.com/avatar/e64c7d89f26bd1972efa854d13d7dd61?s=80&d=identicon",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
