/**
 * Battle.net (OpenID Connect). Create a client at https://develop.battle.net/access/clients with the
 * redirect URL `https://<your app>/auth/callback/battlenet`; set `AUTH_BATTLENET_ID` and
 * `AUTH_BATTLENET_SECRET`. The default issuer is the global `https://oauth.battle.net`; for China set
 * `AUTH_BATTLENET_ISSUER` to `https://oauth.battlenet.com.cn`. Battle.net returns no email address.
 *
 * Docs: https://develop.battle.net/documentation/guides/using-oauth
 *
 * @module providers/battlenet
 */
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";

/** The claims of a Battle.net ID token (https://develop.battle.net/documentation/guides/using-oauth/authorization-code-flow). */
export interface BattleNetProfile {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  /** The player's BattleTag, e.g. `Player#1234`. */
  battle_tag?: string;
  [claim: string]: unknown;
}

/** Battle.net sign-in. Options are merged over the defaults (`authorization.params` key by key). */
export default function BattleNet(options?: OAuthUserConfig<BattleNetProfile>): OAuthPresetConfig<BattleNetProfile> {
  return mergeProviderOptions<BattleNetProfile>(
    {
      id: "battlenet",
      name: "Battle.net",
      type: "oidc",
      // trustEmail (see SECURITY.md, "Identity"): Battle.net returns no email.
      trustEmail: false,
      issuer: "https://oauth.battle.net",
      authorization: { params: { scope: "openid" } },
      profile: (profile) => ({ id: profile.sub, name: profile.battle_tag ?? null, email: null, image: null }),
      style: { brandColor: "#148eff", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "sub", name: "battle_tag", email: null, image: null },
  selfHosted: { option: "issuer", env: "AUTH_BATTLENET_ISSUER" },
  docs: "https://develop.battle.net/documentation/guides/using-oauth",
};
