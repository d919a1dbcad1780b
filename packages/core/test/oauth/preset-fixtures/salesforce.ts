/**
 * Salesforce: discovery at `<issuer>/.well-known/openid-configuration` and the ID token of
 * https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid_token_endpoint.htm (with
 * `email_verified`), against a My Domain style issuer on the fake.
 */
import Salesforce from "../../../src/providers/salesforce.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) => Salesforce({ issuer: origin }),
  authorization: { path: "/services/oauth2/authorize", params: { scope: "openid profile email" }, checks: ["pkce", "state", "nonce"] },
  token: {
    path: "/services/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      signature: "d/SxeYBxH0GSVko0HMgcUxuZy0PA2cDDz1u7g7JtDHw=",
      scope: "email openid profile",
      id_token: idToken,
      instance_url: "https://yourInstance.salesforce.com",
      id: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P",
      token_type: "Bearer",
      issued_at: "1278448832702",
    }),
  },
  oidc: {
    issuerPath: "",
    claims: {
      sub: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P",
      name: "Astro Nomical",
      preferred_username: "astro@example.com",
      given_name: "Astro",
      family_name: "Nomical",
      email: "astro@example.com",
      email_verified: true,
      picture: "https://example.my.salesforce.com/profilephoto/005/F",
      user_id: "005x00000012Q9P",
      organization_id: "00Dx0000000BV7z",
    },
  },
  routes: {},
  expected: {
    user: {
      id: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P",
      name: "Astro Nomical",
      email: "astro@example.com",
      image: "https://example.my.salesforce.com/profilephoto/005/F",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
