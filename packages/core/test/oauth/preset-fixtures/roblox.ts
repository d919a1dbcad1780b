/**
 * Roblox: the issuer has a trailing slash (`https://apis.roblox.com/oauth/`), discovery at
 * `…/oauth/.well-known/openid-configuration`; ID token claims as in
 * https://create.roblox.com/docs/cloud/reference/oauth2#get-v1userinfo.
 */
import Roblox from "../../../src/providers/roblox.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Roblox({ issuer: `${origin}/oauth/` }),
  authorization: { path: "/oauth/v1/authorize", params: { scope: "openid profile" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth/v1/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      refresh_token: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoicm",
      token_type: "Bearer",
      expires_in: 899,
      id_token: idToken,
      scope: "openid profile",
    }),
  },
  oidc: {
    issuerPath: "/oauth/",
    claims: {
      sub: "1516563360",
      name: "exampleuser",
      nickname: "exampleuser",
      preferred_username: "exampleuser",
      created_at: 1584682495,
      profile: "https://www.roblox.com/users/1516563360/profile",
      picture: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-example/150/150/AvatarHeadshot/Png/noFilter",
    },
  },
  routes: {},
  expected: {
    user: {
      id: "1516563360",
      name: "exampleuser",
      email: null,
      image: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-example/150/150/AvatarHeadshot/Png/noFilter",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
