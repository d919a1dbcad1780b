/**
 * HubSpot: https://developers.hubspot.com/docs/api/oauth-quickstart-guide (token exchange, body
 * credentials) and https://developers.hubspot.com/docs/api/oauth/tokens (access-token metadata: the
 * token is the last path segment, no Authorization header).
 */
import HubSpot from "../../../src/providers/hubspot.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    HubSpot({
      authorization: { url: `${origin}/oauth/authorize` },
      token: `${origin}/oauth/v1/token`,
      userinfo: { url: `${origin}/oauth/v1/access-tokens` },
    }),
  authorization: { path: "/oauth/authorize", params: { scope: "oauth" }, checks: ["state"] },
  token: {
    path: "/oauth/v1/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      token_type: "bearer",
      refresh_token: "6f18f21e-a743-4509-b7fd-1a5e632fffa1",
      access_token: accessToken,
      expires_in: 1800,
    }),
  },
  routes: {
    "GET /oauth/v1/access-tokens/{token}": {
      body: (request) => ({
        token: decodeURIComponent(request.url.pathname.split("/").pop() ?? ""),
        user: "test@hubspot.com",
        hub_domain: "demo.hubapi.com",
        scopes: ["oauth"],
        scope_to_scope_group_pks: [25, 31],
        trial_scopes: [],
        trial_scope_to_scope_group_pks: [],
        hub_id: 62515,
        app_id: 456,
        expires_in: 1754,
        user_id: 123,
        token_type: "access",
      }),
    },
  },
  expected: {
    user: { id: "123", name: "test@hubspot.com", email: "test@hubspot.com", image: null },
    emailTrusted: false,
  },
} satisfies PresetFixture;
