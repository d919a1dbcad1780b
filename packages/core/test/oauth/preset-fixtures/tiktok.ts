/**
 * TikTok Login Kit for Web: the authorization request and token exchange name the client id
 * `client_key` (https://developers.tiktok.com/doc/login-kit-web,
 * https://developers.tiktok.com/doc/oauth-user-access-token-management), and
 * https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info for the profile.
 */
import TikTok from "../../../src/providers/tiktok.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    TikTok({
      authorization: { url: `${origin}/v2/auth/authorize/` },
      token: `${origin}/v2/oauth/token/`,
      userinfo: { url: `${origin}/v2/user/info/` },
    }),
  authorization: { path: "/v2/auth/authorize/", params: { scope: "user.info.basic" }, checks: ["state"] },
  token: {
    path: "/v2/oauth/token/",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      expires_in: 86400,
      open_id: "afd97af1-b87b-48b9-ac98-410aghda5344",
      refresh_expires_in: 31536000,
      refresh_token: "rft.example",
      scope: "user.info.basic",
      token_type: "Bearer",
    }),
  },
  quirks: { clientIdParam: "client_key" },
  routes: {
    "GET /v2/user/info/": {
      body: (request) => {
        if (request.url.searchParams.get("fields") !== "open_id,union_id,avatar_url,display_name,username")
          throw new Error("fields not asked");
        return {
          data: {
            user: {
              open_id: "afd97af1-b87b-48b9-ac98-410aghda5344",
              union_id: "8b3ea0c8-8e7e-4bdc-9b9b-2f1d1c0e5d8f",
              avatar_url: "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
              display_name: "Tik Toker",
              username: "tiktoker",
            },
          },
          error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" },
        };
      },
    },
  },
  expected: {
    user: {
      id: "afd97af1-b87b-48b9-ac98-410aghda5344",
      name: "Tik Toker",
      email: null,
      image: "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
