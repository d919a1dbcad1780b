/**
 * Nextcloud, self-hosted under a sub-path: the preset's `baseUrl` moves every endpoint. Shapes:
 * https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html (authorize,
 * token with the client credentials in the body, answering `user_id`) and
 * https://docs.nextcloud.com/server/latest/developer_manual/client_apis/OCS/ocs-api-overview.html#user-metadata
 * (`GET /ocs/v2.php/cloud/user?format=json`, which needs the `OCS-APIRequest: true` header).
 */
import Nextcloud from "../../../src/providers/nextcloud.js";
import type { PresetFixture } from "../preset-harness.js";

let origin = "";

export default {
  title: "nextcloud (self-hosted baseUrl)",
  provider: (fakeOrigin) => {
    origin = fakeOrigin;
    return Nextcloud({ baseUrl: `${fakeOrigin}/cloud/` });
  },
  authorization: { path: "/cloud/index.php/apps/oauth2/authorize", checks: ["pkce", "state"] },
  token: {
    path: "/cloud/index.php/apps/oauth2/api/v1/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: "4AGrBb3CvYSv1JyM2uVdx7M3wMQw2nHZ6dD1Yu4MpAk1bgvWvXbRrFTTAhTB9Q4Gkt6fKiv",
      user_id: "alice",
    }),
  },
  routes: {
    "GET /cloud/ocs/v2.php/cloud/user": {
      body: (request) => {
        if (request.headers["ocs-apirequest"] !== "true") throw new Error("OCS-APIRequest header missing");
        return {
          ocs: {
            meta: { status: "ok", statuscode: 200, message: "OK" },
            data: {
              enabled: true,
              id: "alice",
              displayname: "Alice Liddell",
              email: "alice@cloud.example",
              language: "en",
              groups: ["users"],
            },
          },
        };
      },
    },
  },
  expected: {
    get user() {
      return { id: "alice", name: "Alice Liddell", email: "alice@cloud.example", image: `${origin}/cloud/index.php/avatar/alice/512` };
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
