/**
 * Wikimedia (Meta-Wiki) OAuth 2: https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2_endpoints
 * (`/w/rest.php/oauth2/authorize`, `/access_token`, `/resource/profile`) and
 * https://api.wikimedia.org/wiki/Authentication. The profile says `confirmed_email: true`, so the
 * preset vouches for the address.
 */
import Wikimedia from "../../../src/providers/wikimedia.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Wikimedia({
      authorization: `${origin}/w/rest.php/oauth2/authorize`,
      token: `${origin}/w/rest.php/oauth2/access_token`,
      userinfo: `${origin}/w/rest.php/oauth2/resource/profile`,
    }),
  authorization: { path: "/w/rest.php/oauth2/authorize", checks: ["pkce", "state"] },
  token: {
    path: "/w/rest.php/oauth2/access_token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      token_type: "Bearer",
      expires_in: 14400,
      access_token: accessToken,
      refresh_token: "def50200example",
    }),
  },
  routes: {
    "GET /w/rest.php/oauth2/resource/profile": {
      body: {
        sub: "51627406",
        username: "Example User",
        editcount: 1234,
        confirmed_email: true,
        blocked: false,
        registered: "20190101000000",
        groups: ["*", "user", "autoconfirmed"],
        rights: ["read", "edit"],
        grants: ["mwoauth-authonlyprivate"],
        realname: "Erika Mustermann",
        email: "erika@example.org",
      },
    },
  },
  expected: { user: { id: "51627406", name: "Erika Mustermann", email: "erika@example.org", image: null }, emailTrusted: true },
} satisfies PresetFixture;
