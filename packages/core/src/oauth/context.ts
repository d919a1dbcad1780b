/**
 * What the request engine hands to the OAuth layer, and what it gets back.
 *
 * @module oauth/context
 */

import type { Account, CookiesOptions, LoggerInstance, Profile, User } from "../types/config.js";
import type { Cookie } from "../types/internal.js";
import type { OAuthConfig } from "../types/providers.js";

/** Everything one OAuth sign-in step needs to know about the request and the configuration. */
export interface OAuthContext {
  /** The provider, user options already merged over the preset's defaults; `id`, `clientId`, `clientSecret`, `issuer` set. */
  provider: OAuthConfig;
  /** This deployment's callback URL for the provider: `${origin}${basePath}/callback/${provider.id}`. */
  redirectUri: string;
  /** Seals the check cookies (and the redirect-proxy state). Newest first: the first one encrypts. */
  secret: string | string[];
  /** Names and options of the `pkceCodeVerifier`, `state` and `nonce` cookies. */
  cookies: CookiesOptions;
  /** The cookies of the incoming request. */
  requestCookies: Record<string, string | undefined>;
  logger: LoggerInstance;
  /** The warnings this instance has said already (each is said once per instance). */
  warned?: Set<string>;
  /** `provider.redirectProxyUrl ?? config.redirectProxyUrl`: the proxy's base URL, up to and including its base path. */
  redirectProxyUrl?: string;
  /** Origin of the incoming request, as trusted by the engine (e.g. `https://app.example.com`). */
  requestOrigin: string;
  /**
   * On the redirect proxy: origin patterns (`https://*-team.preview.example`) it may forward callbacks to.
   * Unset or empty: it forwards to no other origin.
   */
  redirectProxyAllowedOrigins?: string[];
  /**
   * The binding of this browser (http/flow-binding.ts): sealed into the check cookies at the start, and
   * compared with theirs at the callback. An empty binding never matches.
   */
  flowBinding: string;
  /** At the start: the flow links the account to the signed-in user (sealed into the check cookies). */
  link?: boolean;
}

/** The start of a sign-in: where to send the browser, and the check cookies to set. */
export interface AuthorizationStart {
  /** The provider's authorization URL with every parameter. */
  url: string;
  /** Sealed PKCE / state / nonce cookies, one per configured check. */
  cookies: Cookie[];
}

/** A completed sign-in at the provider. */
export interface SignedIn {
  kind: "signed-in";
  /** The provider's user info: validated ID token claims (oidc, merged with userinfo when configured) or the userinfo response (oauth). */
  profile: Profile;
  /** What `provider.profile()` returned; `id` is the provider's account id. */
  user: User & { id: string };
  /** The whole token response plus `provider`, `type`, `providerAccountId` and `expires_at`. */
  account: Account;
  /** Deletes the check cookies this callback used. */
  cookies: Cookie[];
  /** True when the flow was started as an explicit link by the same browser and session. */
  link: boolean;
}

/** The callback reached the redirect proxy for a flow that another deployment started: forward it there. */
export interface ProxyRedirect {
  kind: "proxy-redirect";
  /** The other deployment's callback URL with the provider's response parameters. */
  url: string;
}

/** What {@link finishAuthorization} resolves to. */
export type AuthorizationResult = SignedIn | ProxyRedirect;
