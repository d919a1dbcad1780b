/**
 * GitHub: the web application flow (https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps)
 * and the REST API (https://docs.github.com/en/rest/users/users#get-the-authenticated-user,
 * https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user). The
 * recorded profile keeps its email private, so the preset reads the primary verified one from `/user/emails`.
 */
import GitHub from "../../../src/providers/github.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    GitHub({
      authorization: { url: `${origin}/login/oauth/authorize` },
      token: `${origin}/login/oauth/access_token`,
      userinfo: { url: `${origin}/api/v3/user` },
    }),
  authorization: { path: "/login/oauth/authorize", params: { scope: "read:user user:email" }, checks: ["pkce", "state"] },
  token: {
    path: "/login/oauth/access_token",
    clientAuth: "client_secret_basic",
    // GitHub answers JSON when asked with `Accept: application/json`; scopes are comma-separated.
    response: ({ accessToken }) => ({ access_token: accessToken, scope: "read:user,user:email", token_type: "bearer" }),
  },
  routes: {
    "GET /api/v3/user": { body: recorded("github") },
    "GET /api/v3/user/emails": { body: recorded("github-emails") },
  },
  expected: {
    user: { id: "583231", name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/583231?v=4" },
    emailTrusted: true,
  },
} satisfies PresetFixture;
