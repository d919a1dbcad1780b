/**
 * `@authlib/core/integration`: what a framework integration needs beyond an instance's `handler` and
 * `api`, for frameworks that keep their own cookie jar and response object (the Qwik integration uses it).
 * Apps do not need it.
 *
 * @module @authlib/core/integration
 */

import { failureCookies, sessionErrorStatus } from "./http/error-response.js";
import { type AuthAnswer, serializeCookie } from "./http/response.js";
import { instanceFor } from "./kernel/auth.js";
import { type AuthInstance, resolvedConfigOf } from "./kernel/instance.js";
import { type AuthRequestOptions, answer, errorRedirect as redirectAfter } from "./kernel/pipeline.js";
import type { AuthConfig } from "./types/config.js";

export { setEnvDefaults } from "./env/defaults.js";
export type { Cookie } from "./http/cookies.js";
export type { AuthAnswer } from "./http/response.js";
export type { AuthRequestOptions } from "./kernel/pipeline.js";
export { failureCookies, serializeCookie, sessionErrorStatus };

/**
 * The instance of `config`, made on first use and kept per configuration object (the one `Auth()` uses).
 * Unlike `createAuth`, it never throws: a configuration error is answered per request by `handler` (a
 * 500 that names no detail) and thrown by every `api` operation. For integrations that build the
 * configuration per request from the framework's env and must keep `Auth()`'s behaviour.
 */
export function authFor(config: AuthConfig): AuthInstance {
  return instanceFor(config);
}

/**
 * What `auth.handler(request)` answers, as data: status, headers, the body text, and the cookies as
 * objects (for the framework's cookie jar; serialise each with {@link serializeCookie}). Never throws.
 */
export function answerRequest(auth: AuthInstance, request: Request, options?: AuthRequestOptions): Promise<AuthAnswer> {
  return answer(resolvedConfigOf(auth), request, options);
}

/**
 * Where `auth.handler` would send the browser after `error`, a failure an `auth.api` operation threw (the
 * sign-in page for sign-in errors, the error page otherwise, with `?error=<type>`, and `&code=` for
 * `CredentialsSignin`): for an integration that answers with its own redirect. An absolute URL; on a
 * host the trusted-host list refuses, on the request's own origin.
 */
export function errorRedirect(auth: AuthInstance, error: unknown, request: Request): string {
  return redirectAfter(resolvedConfigOf(auth), error, request);
}
