/**
 * WeChat (Website Application login, OAuth 2 with WeChat's own parameter names). Create a website
 * application on the WeChat Open Platform with your app's domain as the authorization callback domain;
 * set `AUTH_WECHAT_ID` (the AppID) and `AUTH_WECHAT_SECRET` (the AppSecret).
 *
 * WeChat's deviations, handled through `requestQuirks` and `tokenResponseQuirks` (see `oauth/conform.ts`): the client id is `appid` and
 * the secret `secret`; the token endpoint is a GET with the parameters in the query; the authorization
 * URL ends with `#wechat_redirect`; the token response is JSON sent as `text/plain`, reports errors as
 * HTTP 200 `{ errcode, errmsg }`, carries the user's `openid` and names no `token_type`. WeChat returns
 * no email address.
 *
 * Docs: https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html
 *
 * @module providers/wechat
 */
import { providerFetch } from "../oauth/provider-fetch.js";
import type { OAuthConfig, TokenSet } from "../types/providers.js";
import type { PresetMeta } from "./meta.js";
import { mergeProviderOptions, type OAuthPresetConfig, type OAuthUserConfig } from "./oauth.js";
import { configuredUserinfoUrl } from "./preset-request.js";

/** `GET /sns/userinfo` (https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Authorized_Interface_Calling_UnionID.html). */
export interface WeChatProfile {
  openid: string;
  nickname: string;
  sex?: number;
  province?: string;
  city?: string;
  country?: string;
  headimgurl?: string;
  privilege?: string[];
  /** The user's id across the developer's applications. */
  unionid?: string;
  [field: string]: unknown;
}

/** `/sns/userinfo` for the token's user: WeChat wants the token and the `openid` of the token response in the query. */
async function fetchWeChatUser({ tokens, provider }: { tokens: TokenSet; provider: OAuthConfig<WeChatProfile> }): Promise<WeChatProfile> {
  const base = configuredUserinfoUrl(provider, "https://api.weixin.qq.com/sns/userinfo");
  const url = new URL(base);
  url.searchParams.set("access_token", String(tokens.access_token ?? ""));
  url.searchParams.set("openid", String(tokens.openid ?? ""));
  url.searchParams.set("lang", "en");
  const response = await providerFetch(provider, url.href);
  const profile = JSON.parse(await response.text()) as WeChatProfile & { errcode?: number; errmsg?: string };
  if (!response.ok || profile.errcode || typeof profile.openid !== "string") {
    throw new Error(`WeChat /sns/userinfo failed: ${profile.errcode ?? response.status} ${profile.errmsg ?? ""}`.trim());
  }
  return profile;
}

/** WeChat sign-in (QR code login on the web). Options are merged over the defaults. */
export default function WeChat(options?: OAuthUserConfig<WeChatProfile>): OAuthPresetConfig<WeChatProfile> {
  return mergeProviderOptions<WeChatProfile>(
    {
      id: "wechat",
      name: "WeChat",
      type: "oauth",
      // trustEmail (see SECURITY.md, "Identity"): WeChat returns no email.
      trustEmail: false,
      authorization: { url: "https://open.weixin.qq.com/connect/qrconnect", params: { scope: "snsapi_login" } },
      token: "https://api.weixin.qq.com/sns/oauth2/access_token",
      userinfo: { url: "https://api.weixin.qq.com/sns/userinfo", request: fetchWeChatUser },
      client: { token_endpoint_auth_method: "client_secret_post" },
      requestQuirks: {
        clientIdParam: "appid",
        clientSecretParam: "secret",
        tokenRequestMethod: "GET",
        authorizationFragment: "wechat_redirect",
      },
      tokenResponseQuirks: ["json-as-text", "token-type-missing"],
      // WeChat knows no PKCE.
      checks: ["state"],
      profile: (profile) => ({
        // openid is always present and stable for this app; unionid only once the app joins an Open Platform account.
        id: profile.openid,
        name: profile.nickname ?? null,
        email: null,
        image: profile.headimgurl || null,
      }),
      style: { brandColor: "#07c160", text: "#fff" },
    },
    options,
  );
}

/** Documented facts for the generated provider table (`docs/providers.md`). */
export const meta: PresetMeta = {
  maps: { id: "openid", name: "nickname", email: null, image: "headimgurl" },
  docs: "https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html",
};
