/**
 * Twitch: claims asked for in the authorization request. The fake serves discovery, JWKS and an ID token carrying the
 * recorded claims of `test/oauth/fixtures/twitch.json` (shape: https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/).
 */
import Twitch from "../../../src/providers/twitch.js";
import { type PresetFixture, recordedClaims } from "../preset-harness.js";

export default {
  provider: (origin) => Twitch({ issuer: `${origin}/oauth2` }),
  authorization: { path: "/oauth2/authorize", params: { scope: "openid user:read:email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, idToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }),
  },
  oidc: { issuerPath: "/oauth2", claims: recordedClaims("twitch") },
  routes: {},
  expected: {
    user: {
      id: "713936733",
      name: "twitchdev",
      email: "streamer@example.com",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-150x150.png",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
