/**
 * Atlassian 3LO: token exchange and `GET /me` as documented at
 * https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/ (the documented token response
 * carries no `token_type`; the preset declares that quirk).
 */
import Atlassian from "../../../src/providers/atlassian.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Atlassian({ authorization: { url: `${origin}/authorize` }, token: `${origin}/oauth/token`, userinfo: `${origin}/me` }),
  authorization: {
    path: "/authorize",
    params: { audience: "api.atlassian.com", prompt: "consent", scope: "read:me" },
    checks: ["state"],
  },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, expires_in: 3600, scope: "read:me" }),
  },
  routes: {
    "GET /me": {
      body: {
        account_type: "atlassian",
        account_id: "112233aa-bb11-cc22-33dd-444444eeeeee",
        email: "mia@example.com",
        email_verified: true,
        name: "Mia Krystof",
        picture:
          "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa-bb11-cc22-33dd-444444eeeeee/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
        account_status: "active",
        nickname: "mkrystof",
        zoneinfo: "Australia/Sydney",
        locale: "en-US",
        extended_profile: { job_title: "Designer", organization: "mia@example.com", department: "Design team" },
      },
    },
  },
  expected: {
    user: {
      id: "112233aa-bb11-cc22-33dd-444444eeeeee",
      name: "Mia Krystof",
      email: "mia@example.com",
      image:
        "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa-bb11-cc22-33dd-444444eeeeee/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
