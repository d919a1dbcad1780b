/**
 * Bitbucket Cloud: https://developer.atlassian.com/cloud/bitbucket/oauth-2/ (authorization, token with
 * HTTP Basic), `GET /2.0/user` and `GET /2.0/user/emails` recorded in `test/oauth/fixtures/bitbucket*.json`
 * (https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/). The email is the primary confirmed one.
 */
import Bitbucket from "../../../src/providers/bitbucket.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Bitbucket({
      authorization: { url: `${origin}/site/oauth2/authorize` },
      token: `${origin}/site/oauth2/access_token`,
      userinfo: { url: `${origin}/2.0/user` },
    }),
  authorization: { path: "/site/oauth2/authorize", params: { scope: "account email" }, checks: ["pkce", "state"] },
  token: {
    path: "/site/oauth2/access_token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      scopes: "account email",
      token_type: "bearer",
      expires_in: 7200,
      state: "authorization_code",
      refresh_token: "CYqQhGmZbR4w2kXJ5pN8",
    }),
  },
  routes: {
    "GET /2.0/user": { body: recorded("bitbucket") },
    "GET /2.0/user/emails": { body: recorded("bitbucket-emails") },
  },
  expected: {
    user: {
      id: "557058:1c9d3b2a-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
      name: "Taylor Example",
      email: "taylor@example.com",
      image:
        "https://secure.gravatar.com/avatar/0d0c3a8f8b1d4f1a9e3c2b1a0f9e8d7c?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTE-0.png",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
