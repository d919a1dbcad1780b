/**
 * Salesforce (OpenID Connect, issuer `https://login.salesforce.com`). Create a connected app (or
 * external client app) with OAuth enabled, the callback URL `https://<your app>/auth/callback/salesforce`
 * and the scopes `openid profile email`; set `AUTH_SALESFORCE_ID` (consumer key) and
 * `AUTH_SALESFORCE_SECRET`. For a sandbox or a My Domain, set `AUTH_SALESFORCE_ISSUER`
 * (`https://test.salesforce.com`, `https://<domain>.my.salesforce.com`). Docs:
 * https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm.
 *
 * @module providers/salesforce
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Salesforce ID token (https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid_token_endpoint.htm). */
export interface SalesforceProfile {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  name?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  user_id?: string;
  organization_id?: string;
  [claim: string]: unknown;
}

/** Salesforce sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Salesforce(options?: OAuthUserConfig<SalesforceProfile>): OAuthPresetConfig<SalesforceProfile> {
  return mergeProviderOptions<SalesforceProfile>(
    {
      id: "salesforce",
      name: "Salesforce",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Salesforce sends `email_verified`; that claim decides.
      trustEmail: false,
      issuer: "https://login.salesforce.com",
      authorization: { params: { scope: "openid profile email" } },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
      style: { brandColor: "#00a1e0", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "name ?? preferred_username", email: "email", image: "picture" },
  emailTrustedWhen: "`email_verified` is true",
  selfHosted: { option: "issuer", env: "AUTH_SALESFORCE_ISSUER" },
  docs: "https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm",
};
