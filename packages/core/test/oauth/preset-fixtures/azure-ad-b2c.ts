/**
 * Azure AD B2C with the policy-carrying issuer (`…/tfp/<tenant id>/<user flow>/v2.0/`): discovery, and
 * an ID token with the claims of https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview#claims.
 */
import AzureADB2C from "../../../src/providers/azure-ad-b2c.js";
import type { PresetFixture } from "../preset-harness.js";

const ISSUER_PATH = "/tfp/775527ff-9a37-4307-8b3d-cc311f58d925/b2c_1_signupsignin/v2.0/";

export default {
  provider: (origin) => AzureADB2C({ issuer: `${origin}${ISSUER_PATH}` }),
  authorization: {
    path: "/contoso.onmicrosoft.com/b2c_1_signupsignin/oauth2/v2.0/authorize",
    params: { scope: "openid offline_access" },
    checks: ["pkce", "state", "nonce"],
  },
  token: {
    path: "/contoso.onmicrosoft.com/b2c_1_signupsignin/oauth2/v2.0/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, idToken }) => ({
      access_token: accessToken,
      id_token: idToken,
      token_type: "Bearer",
      not_before: 1729000000,
      expires_in: 3600,
      refresh_token: "eyJraWQiOiJjcGltY29yZV8wOTI1MjAxNSIsInZlciI6IjEuMC",
      refresh_token_expires_in: 1209600,
      scope: "openid offline_access",
    }),
  },
  oidc: {
    issuerPath: ISSUER_PATH,
    claims: {
      sub: "e1b6c1a4-5b86-4b5e-9c1f-3b0e1d7b9a21",
      oid: "e1b6c1a4-5b86-4b5e-9c1f-3b0e1d7b9a21",
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      emails: ["ada@example.com"],
      tfp: "B2C_1_signupsignin",
      ver: "1.0",
      nbf: Math.floor(Date.now() / 1000) - 5,
    },
  },
  routes: {},
  expected: {
    user: { id: "e1b6c1a4-5b86-4b5e-9c1f-3b0e1d7b9a21", name: "Ada Lovelace", email: "ada@example.com", image: null },
    emailTrusted: false,
  },
} satisfies PresetFixture;
