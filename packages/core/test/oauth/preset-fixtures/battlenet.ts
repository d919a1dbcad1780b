/**
 * BattleNet (OpenID Connect): https://develop.battle.net/documentation/guides/using-oauth/authorization-code-flow (ID token with `sub` and `battle_tag`).
 * The fake serves discovery and a JWKS at the issuer and signs the ID token.
 */
import BattleNet from "../../../src/providers/battlenet.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => BattleNet({ issuer: `${origin}` }),
  authorization: { path: "/authorize", params: { scope: "openid" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
      expires_in: 86399,
      scope: "openid",
      sub: "123456789",
    }),
  },
  oidc: { issuerPath: "", claims: { sub: "123456789", battle_tag: "Player#1234" } },
  routes: {},
  expected: { user: { id: "123456789", name: "Player#1234", email: null, image: null }, emailTrusted: false },
} satisfies PresetFixture;
