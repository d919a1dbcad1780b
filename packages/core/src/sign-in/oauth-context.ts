/** The context the OAuth layer needs, built from the request options. */

import type { OAuthContext } from "../oauth/index.js";
import type { InternalOptions, InternalProvider, RequestInternal } from "../types/internal.js";
import type { OAuthConfig } from "../types/providers.js";

/**
 * `flow` is this browser's binding (http/flow-binding.ts) and, when starting, whether the flow is an
 * explicit link to the signed-in user.
 */
export function oauthContext(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & OAuthConfig,
  flow: { binding: string; link?: boolean },
): OAuthContext {
  return {
    flowBinding: flow.binding,
    link: flow.link,
    provider,
    redirectUri: provider.callbackUrl,
    secret: options.secret,
    cookies: options.cookies,
    requestCookies: request.cookies,
    logger: options.logger,
    warned: options.warned,
    redirectProxyUrl: provider.redirectProxyUrl ?? options.redirectProxyUrl,
    requestOrigin: options.origin,
    redirectProxyAllowedOrigins: options.redirectProxyAllowedOrigins,
  };
}
