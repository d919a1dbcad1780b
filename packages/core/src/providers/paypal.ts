/**
 * PayPal, "Log in with PayPal" (OAuth 2). In the developer dashboard, enable "Log in with PayPal" for
 * the app with the return URL `https://<your app>/auth/callback/paypal` and the email and profile
 * attributes; set `AUTH_PAYPAL_ID` and `AUTH_PAYPAL_SECRET`. For the sandbox, pass the
 * `www.sandbox.paypal.com` / `api-m.sandbox.paypal.com` URLs. Endpoints:
 * https://developer.paypal.com/docs/log-in-with-paypal/integrate/ and
 * https://developer.paypal.com/docs/api/identity/v1/#userinfo_get.
 *
 * @module providers/paypal
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /v1/identity/openidconnect/userinfo?schema=openid` (https://developer.paypal.com/docs/api/identity/v1/#userinfo_get). */
export interface PayPalProfile {
  user_id: string;
  sub?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  verified_account?: boolean | string;
  payer_id?: string;
  [field: string]: unknown;
}

/** PayPal sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function PayPal(options?: OAuthUserConfig<PayPalProfile>): OAuthPresetConfig<PayPalProfile> {
  return mergeProviderOptions<PayPalProfile>(
    {
      id: "paypal",
      name: "PayPal",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The userinfo response sends `email_verified`; that field decides.
      trustEmail: false,
      authorization: { url: "https://www.paypal.com/signin/authorize", params: { scope: "openid profile email" } },
      token: "https://api-m.paypal.com/v1/oauth2/token",
      userinfo: { url: "https://api-m.paypal.com/v1/identity/openidconnect/userinfo", params: { schema: "openid" } },
      checks: ["state"],
      profile: (profile) => ({ id: profile.user_id, name: profile.name ?? null, email: profile.email ?? null, image: null }),
      style: { brandColor: "#003087", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "user_id", name: "name", email: "email", image: null },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://developer.paypal.com/docs/api/identity/v1/#userinfo_get",
};
