/**
 * Coinbase: https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations (token exchange)
 * and https://docs.cdp.coinbase.com/coinbase-app/docs/api-users#show-current-user (`GET /v2/user`).
 */
import Coinbase from "../../../src/providers/coinbase.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Coinbase({ authorization: { url: `${origin}/oauth2/auth` }, token: `${origin}/oauth2/token`, userinfo: `${origin}/v2/user` }),
  authorization: { path: "/oauth2/auth", params: { scope: "wallet:user:read wallet:user:email" }, checks: ["state"] },
  token: {
    path: "/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: "b5b6b6f7e2d2a3b5e4c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0",
      scope: "wallet:user:read wallet:user:email",
    }),
  },
  routes: {
    "GET /v2/user": {
      body: {
        data: {
          id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
          name: "User One",
          username: "user1",
          profile_location: null,
          profile_bio: null,
          profile_url: "https://coinbase.com/user1",
          avatar_url:
            "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
          resource: "user",
          resource_path: "/v2/user",
          email: "user1@example.com",
        },
      },
    },
  },
  expected: {
    user: {
      id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
      name: "User One",
      email: "user1@example.com",
      image: "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
