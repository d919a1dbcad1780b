/**
 * Dropbox: https://www.dropbox.com/developers/documentation/http/documentation#oauth2-token (token
 * exchange) and #users-get_current_account (the RPC-style `POST /2/users/get_current_account`).
 */
import Dropbox from "../../../src/providers/dropbox.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Dropbox({
      authorization: { url: `${origin}/oauth2/authorize` },
      token: `${origin}/oauth2/token`,
      userinfo: { url: `${origin}/2/users/get_current_account` },
    }),
  authorization: {
    path: "/oauth2/authorize",
    params: { scope: "account_info.read", token_access_type: "offline" },
    checks: ["pkce", "state"],
  },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      expires_in: 14400,
      token_type: "bearer",
      scope: "account_info.read",
      refresh_token: "nBiM85CZALsAAAAAAAAAAQXHBoNpNutK4ngsXHsqW4iGz9tisb3JyjGqikMJIYbd",
      account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      uid: "12345",
    }),
  },
  routes: {
    "POST /2/users/get_current_account": {
      body: {
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        name: {
          given_name: "Franz",
          surname: "Ferdinand",
          familiar_name: "Franz",
          display_name: "Franz Ferdinand (Personal)",
          abbreviated_name: "FF",
        },
        email: "franz@dropbox.com",
        email_verified: true,
        disabled: false,
        locale: "en",
        referral_link: "https://db.tt/ZITNuhtI",
        is_paired: true,
        account_type: { ".tag": "basic" },
        root_info: { ".tag": "user", root_namespace_id: "3235641", home_namespace_id: "3235641" },
        profile_photo_url:
          "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
        country: "US",
      },
    },
  },
  expected: {
    user: {
      id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: "Franz Ferdinand (Personal)",
      email: "franz@dropbox.com",
      image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
