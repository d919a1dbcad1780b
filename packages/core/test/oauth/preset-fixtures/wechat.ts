/**
 * WeChat website login (https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html):
 * `appid` in the QR connect URL ending with `#wechat_redirect`, a GET token request with `appid`,
 * `secret` and `code` in the query, answered as `text/plain` JSON with the user's `openid` and no
 * `token_type`; then `/sns/userinfo?access_token=…&openid=…`
 * (https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Authorized_Interface_Calling_UnionID.html).
 */
import WeChat from "../../../src/providers/wechat.js";
import type { PresetFixture } from "../preset-harness.js";

const openid = "OPENID-o6_bmjrPTlm6_2sgVt7hMZOPfL2M";

export default {
  provider: (origin) =>
    WeChat({
      authorization: { url: `${origin}/connect/qrconnect` },
      token: `${origin}/sns/oauth2/access_token`,
      userinfo: { url: `${origin}/sns/userinfo` },
    }),
  authorization: { path: "/connect/qrconnect", params: { scope: "snsapi_login" }, checks: ["state"] },
  token: {
    path: "/sns/oauth2/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      expires_in: 7200,
      refresh_token: "REFRESH_TOKEN",
      openid,
      scope: "snsapi_login",
      unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
    }),
  },
  quirks: {
    clientIdParam: "appid",
    clientSecretParam: "secret",
    tokenMethod: "GET",
    tokenContentType: "text/plain",
    authorizationFragment: "wechat_redirect",
  },
  routes: {
    "GET /sns/userinfo": {
      auth: { query: "access_token" },
      body: (request) => {
        if (request.url.searchParams.get("openid") !== openid) return { errcode: 40003, errmsg: "invalid openid" };
        return {
          openid,
          nickname: "NICKNAME",
          sex: 1,
          province: "PROVINCE",
          city: "CITY",
          country: "COUNTRY",
          headimgurl:
            "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/0",
          privilege: ["PRIVILEGE1", "PRIVILEGE2"],
          unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
        };
      },
    },
  },
  expected: {
    user: {
      id: openid,
      name: "NICKNAME",
      email: null,
      image:
        "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/0",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
