/**
 * How a request flows, shared by `Auth()` and the in-process API (`integration.ts`):
 *
 * 1. the configuration, resolved once per object (`resolve.ts`): a configuration error stops here;
 * 2. the parsed request (`http/request.ts`): a path or method authlib does not answer is `UnknownAction`;
 * 3. the origin (`http/origin.ts`): a host the trusted-host list refuses is `UntrustedHost`;
 * 4. the route (`actions/index.ts`) and the per-request context it declares it needs
 *    (`http/request-context.ts`): CSRF state, callback URL;
 * 5. the action, which returns a result or throws; a thrown error carries the cookies it must still set
 *    (`http/error-response.ts`).
 *
 * @module pipeline
 */
import { routeOf } from "./actions/index.js";
import { type AuthError, RateLimited } from "./errors.js";
import { asAuthError } from "./http/error-response.js";
import { resolveOrigin } from "./http/origin.js";
import { requestContext } from "./http/request-context.js";
import type { RequestInternal, ResponseInternal } from "./internal-types.js";
import type { ResolvedAuth } from "./resolve.js";

/** A configuration that passed the start-up check. */
export type UsableAuth = ResolvedAuth & { options: NonNullable<ResolvedAuth["options"]> };

/** The resolved configuration when usable; throws its (already logged) configuration error otherwise. */
export function usable(resolved: ResolvedAuth): UsableAuth {
  if (resolved.error || !resolved.options) throw resolved.error ?? asAuthError(new Error("The configuration could not be read."));
  return resolved as UsableAuth;
}

/** The app's origin for this request; throws `UntrustedHost` for a host the trusted-host list refuses. */
export function originOf(resolved: ResolvedAuth, request: RequestInternal): string {
  return resolveOrigin(request, resolved.config, request.url);
}

/**
 * Runs the route of `request` from `origin`. Returns its result, with the cookies of the request context
 * first; throws the action's error as an `AuthError`, logged (`RateLimited` as the `rate-limited` warning).
 */
export async function runRoute(resolved: UsableAuth, request: RequestInternal, origin: string): Promise<ResponseInternal> {
  const route = routeOf(request);
  try {
    const { options, cookies } = await requestContext(resolved, request, route.needs, origin);
    // Integrations that protect POSTs themselves skip the check on purpose; warn (once per
    // configuration) only when a client asks for a token that cannot exist.
    if (options.skipCSRFCheck && request.action === "csrf" && !resolved.warnedCsrfDisabled) {
      resolved.warnedCsrfDisabled = true;
      options.logger.warn("csrf-disabled");
    }
    const response = await route.handler(options, request);
    return { ...response, cookies: [...cookies, ...(response.cookies ?? [])] };
  } catch (error) {
    const authError: AuthError = asAuthError(error);
    // A refusal by a rate limit is expected traffic, not a failure: a warning (no identifier in it).
    if (authError instanceof RateLimited) resolved.logger.warn("rate-limited");
    else resolved.logger.error(authError);
    throw authError;
  }
}
