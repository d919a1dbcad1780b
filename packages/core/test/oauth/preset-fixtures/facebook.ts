/**
 * Facebook Login: https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#confirm
 * (code exchange with the credentials as parameters) and the Graph API user recorded in
 * `test/oauth/fixtures/facebook.json` (https://developers.facebook.com/docs/graph-api/reference/user/).
 */
import Facebook from "../../../src/providers/facebook.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Facebook({
      authorization: { url: `${origin}/v21.0/dialog/oauth` },
      token: `${origin}/v21.0/oauth/access_token`,
      userinfo: { url: `${origin}/v21.0/me` },
    }),
  authorization: { path: "/v21.0/dialog/oauth", params: { scope: "email" }, checks: ["pkce", "state"] },
  token: {
    path: "/v21.0/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer", expires_in: 5183944 }),
  },
  routes: {
    "GET /v21.0/me": {
      body: (request) =>
        request.url.searchParams.get("fields") === "id,name,email,picture" ? recorded("facebook") : { error: { message: "fields" } },
    },
  },
  expected: {
    user: {
      id: "10224321098765432",
      name: "Ana Souza",
      email: "ana.souza@example.com",
      image:
        "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224321098765432&height=50&width=50&ext=1735400000&hash=AbYfz2example",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
