/**
 * WorkOS SSO: https://workos.com/docs/reference/sso/get-authorization-url (a `connection`,
 * `organization` or `provider` parameter is required) and
 * https://workos.com/docs/reference/sso/profile/get-profile-and-token (the token response carries the
 * profile, no `token_type`; client id and secret in the form body). No userinfo call.
 */
import WorkOS from "../../../src/providers/workos.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    WorkOS({
      authorization: { url: `${origin}/sso/authorize`, params: { organization: "org_01EHQMYV6MBK39QC5PZXHY59C3" } },
      token: `${origin}/sso/token`,
    }),
  authorization: { path: "/sso/authorize", params: { organization: "org_01EHQMYV6MBK39QC5PZXHY59C3" }, checks: ["pkce", "state"] },
  token: {
    path: "/sso/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      profile: {
        object: "profile",
        id: "prof_01DMC79VCBZ0NY2099737PSVF1",
        connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
        connection_type: "okta",
        organization_id: "org_01EHQMYV6MBK39QC5PZXHY59C3",
        email: "todd@example.com",
        first_name: "Todd",
        last_name: "Rundgren",
        idp_id: "00u1a0ufowBJlzPlk357",
        role: { slug: "admin" },
        raw_attributes: {},
      },
    }),
  },
  routes: {},
  expected: {
    user: { id: "prof_01DMC79VCBZ0NY2099737PSVF1", name: "Todd Rundgren", email: "todd@example.com", image: null },
    emailTrusted: false,
  },
} satisfies PresetFixture;
