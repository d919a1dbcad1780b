/**
 * Patreon: https://docs.patreon.com/#step-4-validating-receipt-of-the-oauth-token (token exchange,
 * body credentials) and https://docs.patreon.com/#get-api-oauth2-v2-identity (JSON:API user document).
 */
import Patreon from "../../../src/providers/patreon.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Patreon({
      authorization: { url: `${origin}/oauth2/authorize` },
      token: `${origin}/api/oauth2/token`,
      userinfo: { url: `${origin}/api/oauth2/v2/identity` },
    }),
  authorization: { path: "/oauth2/authorize", params: { scope: "identity identity[email]" }, checks: ["state"] },
  token: {
    path: "/api/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      refresh_token: "jJ7AqLAfnpmQgyQrCXxyGF8DjEm0BqNWLiIVk1r1sGM",
      expires_in: 2678400,
      scope: "identity identity[email]",
      token_type: "Bearer",
    }),
  },
  routes: {
    "GET /api/oauth2/v2/identity": {
      body: (request) => {
        if (request.url.searchParams.get("fields[user]") !== "email,full_name,image_url,is_email_verified")
          return { errors: [{ detail: "fields" }] };
        return {
          data: {
            attributes: {
              email: "corgi@example.com",
              full_name: "Corgi The Dev",
              image_url: "https://c8.patreon.com/2/200/12345",
              is_email_verified: true,
            },
            id: "12345",
            type: "user",
          },
          links: { self: "https://www.patreon.com/api/oauth2/v2/user/12345" },
        };
      },
    },
  },
  expected: {
    user: { id: "12345", name: "Corgi The Dev", email: "corgi@example.com", image: "https://c8.patreon.com/2/200/12345" },
    emailTrusted: true,
  },
} satisfies PresetFixture;
