/**
 * Notion public integration: https://developers.notion.com/docs/authorization#step-4-notion-responds-with-an-access_token-and-some-additional-information
 * (Basic client credentials; the response names the authorising user in `owner.user`, which is the
 * profile, so the preset calls no further API).
 */
import Notion from "../../../src/providers/notion.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Notion({ authorization: { url: `${origin}/v1/oauth/authorize` }, token: `${origin}/v1/oauth/token` }),
  authorization: { path: "/v1/oauth/authorize", params: { owner: "user" }, checks: ["state"] },
  token: {
    path: "/v1/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      bot_id: "b3414d659-1224-5ty7-6ffr-cc9d8773drt6",
      workspace_name: "Acme Notes",
      workspace_icon: "https://www.notion.so/images/acme.png",
      workspace_id: "j565j4d7x3-2882-61bs-564a-jj9d9ui-c36hxfr7x",
      owner: {
        type: "user",
        user: {
          object: "user",
          id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
          name: "Avocado Lovelace",
          avatar_url: "https://secure.notion-static.com/e6a352a8-8381-44d0-a1dc-9ed80e62b53d.jpg",
          type: "person",
          person: { email: "avo@example.org" },
        },
      },
      duplicated_template_id: null,
      request_id: "f3c6f1a1-8d6e-4b7e-9b1a-3c2d1e0f9a8b",
    }),
  },
  routes: {},
  expected: {
    user: {
      id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
      name: "Avocado Lovelace",
      email: "avo@example.org",
      image: "https://secure.notion-static.com/e6a352a8-8381-44d0-a1dc-9ed80e62b53d.jpg",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
