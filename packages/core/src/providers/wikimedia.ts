/**
 * Wikimedia (OAuth 2 on Meta-Wiki, one account for every Wikimedia wiki). Register an OAuth 2 consumer
 * at https://meta.wikimedia.org/wiki/Special:OAuthConsumerRegistration/propose/oauth2 with the callback
 * `https://<your app>/auth/callback/wikimedia`; set `AUTH_WIKIMEDIA_ID` and `AUTH_WIKIMEDIA_SECRET`.
 * The email address is returned only when the consumer asks for the "User identity verification
 * only, with access to real name and email address" grant.
 *
 * Docs: https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2_endpoints and
 * https://api.wikimedia.org/wiki/Authentication
 *
 * @module providers/wikimedia
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** `GET /w/rest.php/oauth2/resource/profile` (https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2_endpoints). */
export interface WikimediaProfile {
  /** The central user id. */
  sub: string;
  username: string;
  editcount?: number;
  confirmed_email?: boolean;
  blocked?: boolean;
  registered?: string;
  groups?: string[];
  rights?: string[];
  realname?: string;
  email?: string;
  [field: string]: unknown;
}

/** Wikimedia sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function Wikimedia(options?: OAuthUserConfig<WikimediaProfile>): OAuthPresetConfig<WikimediaProfile> {
  return mergeProviderOptions<WikimediaProfile>(
    {
      id: "wikimedia",
      name: "Wikimedia",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): Wikimedia says per account whether the email is confirmed (`confirmed_email`).
      trustEmail: (profile) => profile.confirmed_email === true,
      authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
      token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
      userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
      profile: (profile) => ({
        id: String(profile.sub),
        name: profile.realname || profile.username,
        email: profile.email ?? null,
        image: null,
      }),
      style: { brandColor: "#000", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "realname ?? username", email: "email", image: null },
  emailTrustedWhen: "`confirmed_email` is true",
  docs: "https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2_endpoints",
};
