/**
 * PayPal: https://developer.paypal.com/docs/log-in-with-paypal/integrate/ (authorization, token with
 * Basic client credentials) and https://developer.paypal.com/docs/api/identity/v1/#userinfo_get.
 */
import PayPal from "../../../src/providers/paypal.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    PayPal({
      authorization: { url: `${origin}/signin/authorize` },
      token: `${origin}/v1/oauth2/token`,
      userinfo: { url: `${origin}/v1/identity/openidconnect/userinfo` },
    }),
  authorization: { path: "/signin/authorize", params: { scope: "openid profile email" }, checks: ["state"] },
  token: {
    path: "/v1/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      token_type: "Bearer",
      expires_in: "28800",
      refresh_token: "R23AAGmLqpFfYf7kNc0W2fZbC9VtI3gE",
      scope: "openid profile email",
      access_token: accessToken,
      nonce: "2024-05-01T12:00:00ZgqP2nF8KgQ",
    }),
  },
  routes: {
    "GET /v1/identity/openidconnect/userinfo": {
      body: (request) => {
        if (request.url.searchParams.get("schema") !== "openid") return { name: "INVALID_REQUEST" };
        return {
          user_id: "https://www.paypal.com/webapps/auth/identity/user/mWq6_1sU85v5EG9yHdPxJRrhGHrnMJ-1PQKtX6pcsmA",
          sub: "https://www.paypal.com/webapps/auth/identity/user/mWq6_1sU85v5EG9yHdPxJRrhGHrnMJ-1PQKtX6pcsmA",
          name: "Identity Test User",
          given_name: "Identity",
          family_name: "Test User",
          email: "user@example.com",
          email_verified: true,
          verified_account: "true",
          payer_id: "WDJJHEBZ4X2LY",
        };
      },
    },
  },
  expected: {
    user: {
      id: "https://www.paypal.com/webapps/auth/identity/user/mWq6_1sU85v5EG9yHdPxJRrhGHrnMJ-1PQKtX6pcsmA",
      name: "Identity Test User",
      email: "user@example.com",
      image: null,
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
