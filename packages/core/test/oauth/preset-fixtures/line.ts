/**
 * LINE Login: discovery at https://access.line.me/.well-known/openid-configuration, the token exchange
 * of https://developers.line.biz/en/reference/line-login/#issue-access-token (body credentials) and the
 * ID token payload of https://developers.line.biz/en/docs/line-login/verify-id-token/#payload.
 */
import Line from "../../../src/providers/line.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Line({ issuer: origin }),
  authorization: { path: "/oauth2/v2.1/authorize", params: { scope: "openid profile" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/v2.1/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      expires_in: 2592000,
      id_token: idToken,
      refresh_token: "Aa1FdeggRhTnPNNpxr8p",
      scope: "openid profile",
      token_type: "Bearer",
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "U1234567890abcdef1234567890abcdef",
      auth_time: Math.floor(Date.now() / 1000) - 10,
      amr: ["pwd"],
      name: "Taro Line",
      picture: "https://profile.line-scdn.net/0h8pWWElvzZ19qLk",
    },
  },
  routes: {},
  expected: {
    user: {
      id: "U1234567890abcdef1234567890abcdef",
      name: "Taro Line",
      email: null,
      image: "https://profile.line-scdn.net/0h8pWWElvzZ19qLk",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
