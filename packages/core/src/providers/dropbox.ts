/**
 * Dropbox (OAuth 2). Create an app in the App Console with the permission `account_info.read` and the
 * redirect URI `https://<your app>/auth/callback/dropbox`; set `AUTH_DROPBOX_ID` (app key) and
 * `AUTH_DROPBOX_SECRET` (app secret). `token_access_type=offline` asks for a refresh token.
 * Endpoints: https://developers.dropbox.com/oauth-guide and https://www.dropbox.com/developers/documentation/http/documentation#oauth2-authorize.
 *
 * The profile is `POST /2/users/get_current_account` (an RPC endpoint: POST without a body).
 *
 * @module providers/dropbox
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl, presetJson } from "./preset-request.js";

/** `POST /2/users/get_current_account` (https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account). */
export interface DropboxProfile {
  account_id: string;
  name: { given_name: string; surname: string; familiar_name: string; display_name: string; abbreviated_name: string };
  email: string;
  email_verified: boolean;
  disabled: boolean;
  profile_photo_url?: string;
  locale?: string;
  country?: string;
  [field: string]: unknown;
}

const USERINFO = "https://api.dropboxapi.com/2/users/get_current_account";

/** Dropbox sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Dropbox(options?: OAuthUserConfig<DropboxProfile>): OAuthPresetConfig<DropboxProfile> {
  return mergeProviderOptions<DropboxProfile>(
    {
      id: "dropbox",
      name: "Dropbox",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): The account sends `email_verified`; that field decides.
      trustEmail: false,
      authorization: {
        url: "https://www.dropbox.com/oauth2/authorize",
        params: { scope: "account_info.read", token_access_type: "offline" },
      },
      token: "https://api.dropboxapi.com/oauth2/token",
      userinfo: {
        url: USERINFO,
        request: ({ tokens, provider }) =>
          presetJson<DropboxProfile>(provider, configuredUserinfoUrl(provider, USERINFO), {
            method: "POST",
            headers: { authorization: `Bearer ${tokens.access_token}` },
          }),
      },
      profile: (profile) => ({
        id: profile.account_id,
        name: profile.name.display_name,
        email: profile.email ?? null,
        image: profile.profile_photo_url ?? null,
      }),
      style: { brandColor: "#0061fe", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "account_id", name: "name.display_name", email: "email", image: "profile_photo_url" },
  emailTrustedWhen: "`email_verified` is true",
  docs: "https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account",
};
