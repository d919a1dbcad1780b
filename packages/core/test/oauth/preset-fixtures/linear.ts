/**
 * Linear: https://linear.app/developers/oauth-2-0-authentication (authorization, token exchange with
 * body credentials) and https://linear.app/developers/graphql (the `viewer` query over POST /graphql).
 */
import Linear from "../../../src/providers/linear.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Linear({ authorization: { url: `${origin}/oauth/authorize` }, token: `${origin}/oauth/token`, userinfo: { url: `${origin}/graphql` } }),
  authorization: { path: "/oauth/authorize", params: { scope: "read" }, checks: ["pkce", "state"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "Bearer", expires_in: 315705599, scope: ["read"] }),
  },
  routes: {
    "POST /graphql": {
      body: (request) => {
        const { query } = JSON.parse(request.text) as { query?: string };
        if (!query?.includes("viewer")) return { errors: [{ message: "unexpected query" }] };
        return {
          data: {
            viewer: {
              id: "2e2b3d4f-7c8a-4e5b-9a1c-0d2e3f4a5b6c",
              name: "Karri Saarinen",
              displayName: "karri",
              email: "karri@example.com",
              avatarUrl: "https://public.linear.app/avatars/karri.png",
            },
          },
        };
      },
    },
  },
  expected: {
    user: {
      id: "2e2b3d4f-7c8a-4e5b-9a1c-0d2e3f4a5b6c",
      name: "Karri Saarinen",
      email: "karri@example.com",
      image: "https://public.linear.app/avatars/karri.png",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
