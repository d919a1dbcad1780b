/**
 * Hugging Face: discovery at https://huggingface.co/.well-known/openid-configuration and the ID token
 * claims of https://huggingface.co/docs/hub/oauth (profile and email scopes).
 */
import HuggingFace from "../../../src/providers/huggingface.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => HuggingFace({ issuer: origin }),
  authorization: { path: "/oauth/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 28800,
      id_token: idToken,
      scope: "openid profile email",
    }),
  },
  oidc: {
    issuerPath: "",
    userinfoPath: "/oauth/userinfo",
    claims: {
      sub: "6390a2b2f16b3c7fb9b4e9a1",
      name: "Clem Delangue",
      preferred_username: "clem",
      profile: "https://huggingface.co/clem",
      picture: "https://cdn-avatars.huggingface.co/v1/production/uploads/clem.png",
      website: "https://huggingface.co",
      email: "clem@example.com",
      email_verified: true,
      isPro: true,
      orgs: [],
    },
  },
  routes: {},
  expected: {
    user: {
      id: "6390a2b2f16b3c7fb9b4e9a1",
      name: "Clem Delangue",
      email: "clem@example.com",
      image: "https://cdn-avatars.huggingface.co/v1/production/uploads/clem.png",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
