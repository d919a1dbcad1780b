/**
 * The per-request part of an action's options: only what depends on the request, and of that only what
 * the route declares it needs (`actions/index.ts`). A session check computes its origin and cookie names
 * and nothing else: no CSRF HMAC, no `redirect` callback.
 *
 * @module request-context
 */

import type { Cookie } from "../http/cookies.js";
import { isCrossSite, resolveCsrf } from "../http/csrf.js";
import { openCallbackUrl, sealCallbackUrl } from "../http/flow-binding.js";
import { resolveRedirect } from "../http/redirect.js";
import type { ConfigOptions, InternalOptions, RequestInternal, RequestOptions, RouteNeeds } from "../types/internal.js";
import type { ResolvedAuth } from "./resolve.js";

export type { RouteNeeds } from "../types/internal.js";

/**
 * The options of one request from `origin` (`resolveOrigin`'s answer for it), and the cookies computing
 * them wants to set (a new CSRF cookie, the callback-URL cookie). `fields` are what the operation was given
 * (the form or JSON body, the query, or `auth.api`'s object): a string `callbackUrl` among them is where to go.
 */
export async function requestContext(
  resolved: ResolvedAuth & { options: NonNullable<ResolvedAuth["options"]> },
  request: RequestInternal,
  needs: RouteNeeds,
  origin: string,
  fields: object = request.body,
): Promise<{ options: InternalOptions; cookies: Cookie[] }> {
  const { config, options: shared } = resolved;
  const authUrl = `${origin}${resolved.basePath}`;
  const providers = resolved.providersAt(authUrl);
  const useSecureCookies = config.useSecureCookies ?? origin.startsWith("https:");
  const cookies = resolved.cookies(useSecureCookies);
  const setCookies: Cookie[] = [];

  let csrfToken = "";
  let csrfTokenVerified = shared.skipCSRFCheck;
  if (needs.csrf) {
    const csrf = await resolveCsrf(request, cookies.csrfToken, shared.secret, origin, needs.csrf !== "read");
    csrfToken = csrf.token;
    // An `auth.api` operation has no form to carry the token: the app's own server code called it. It is
    // still refused when the browser says it sent the request from another site.
    const proven = request.inProcess ? !isCrossSite(request, origin) : csrf.verified;
    csrfTokenVerified = shared.skipCSRFCheck || proven;
    if (csrf.cookie) setCookies.push(csrf.cookie);
  }

  let callbackUrl = `${origin}/`;
  if (needs.callbackUrl) {
    const given = Object.hasOwn(fields, "callbackUrl") ? Reflect.get(fields, "callbackUrl") : undefined;
    const candidate = (typeof given === "string" ? given : undefined) ?? request.query.callbackUrl;
    const fromCookie = request.cookies[cookies.callbackUrl.name];
    const { redirect } = shared.callbacks;
    if (candidate) {
      callbackUrl = await resolveRedirect(candidate, origin, redirect, shared.logger);
      // Remembered only for a browser with a CSRF token: the cookie is bound to it.
      const value = csrfToken ? await sealCallbackUrl(shared.secret[0] as string, csrfToken, callbackUrl) : undefined;
      if (value !== undefined && value !== fromCookie)
        setCookies.push({ name: cookies.callbackUrl.name, value, options: cookies.callbackUrl.options });
    } else if (fromCookie) {
      // A cookie this browser did not get from us (planted, or bound to an older CSRF token) is ignored.
      const opened = await openCallbackUrl(shared.secret, csrfToken, fromCookie);
      if (opened !== undefined) callbackUrl = await resolveRedirect(opened, origin, redirect, shared.logger);
    }
  }

  const perRequest: RequestOptions = {
    origin,
    authUrl,
    action: request.action,
    provider: providers.find((p) => p.id === request.providerId),
    providers,
    cookies,
    useSecureCookies,
    csrfToken,
    csrfTokenVerified,
    callbackUrl,
    redirectProxyAllowedOrigins: resolved.redirectProxyAllowedOrigins(origin),
  };
  return { options: withRequest(shared, perRequest), cookies: setCookies };
}

/**
 * The options of one request: the instance's shared part and this request's, as ONE object literal. A
 * literal of a fixed shape is made in one step, where a spread or `Object.assign` grows the object key by
 * key (on the session check, that copy was the largest cost of the pipeline). The `satisfies` below makes
 * the compiler refuse a field of the options this list forgets.
 */
function withRequest(shared: ConfigOptions, request: RequestOptions): InternalOptions {
  const options = {
    basePath: shared.basePath,
    secret: shared.secret,
    callbacks: shared.callbacks,
    events: shared.events,
    audit: shared.audit,
    adapter: shared.adapter,
    capabilities: shared.capabilities,
    session: shared.session,
    sessionStrategy: shared.sessionStrategy,
    sessionRegistry: shared.sessionRegistry,
    jwt: shared.jwt,
    pages: shared.pages,
    theme: shared.theme,
    logger: shared.logger,
    warned: shared.warned,
    instanceState: shared.instanceState,
    skipCSRFCheck: shared.skipCSRFCheck,
    redirectProxyUrl: shared.redirectProxyUrl,
    experimental: shared.experimental,
    rateLimits: shared.rateLimits,
    hooks: shared.hooks,
    quietErrors: shared.quietErrors,
    ownerOperations: shared.ownerOperations,
    featureMessages: shared.featureMessages,
    accountSections: shared.accountSections,
    organizationSections: shared.organizationSections,
    userDetails: shared.userDetails,
    signInErrors: shared.signInErrors,
    handlerOf: shared.handlerOf,
    config: shared.config,
    origin: request.origin,
    authUrl: request.authUrl,
    action: request.action,
    provider: request.provider,
    providers: request.providers,
    cookies: request.cookies,
    useSecureCookies: request.useSecureCookies,
    csrfToken: request.csrfToken,
    csrfTokenVerified: request.csrfTokenVerified,
    callbackUrl: request.callbackUrl,
    redirectProxyAllowedOrigins: request.redirectProxyAllowedOrigins,
  } satisfies Record<keyof InternalOptions, unknown>;
  return options;
}
