/**
 * Failures of the WebAuthn callback. They are answered here rather than thrown, so that the response
 * still clears the challenge cookie: a challenge is good for one attempt, failed or not.
 *
 * @module webauthn/failure
 */
import { AuthError, CallbackRouteError, isClientSafeError } from "../errors.js";
import type { Cookie } from "../http/cookies.js";
import type { InternalOptions, ResponseInternal } from "../internal-types.js";

/**
 * The redirect `Auth()` would answer for `error` (the sign-in page for sign-in errors, the error page
 * otherwise, `?error=<type>`; types that are not client-safe show as `Configuration`), with `cookies`.
 * The error is logged.
 */
export function failureResponse(options: InternalOptions, providerId: string, error: unknown, cookies: Cookie[]): ResponseInternal {
  const authError =
    error instanceof AuthError
      ? error
      : new CallbackRouteError(`The ${providerId} callback failed.`, { cause: { err: error as Error, provider: providerId } });
  options.logger.error(authError);
  const type = isClientSafeError(authError) ? authError.type : "Configuration";
  const page =
    authError.kind === "signIn" && type !== "Configuration"
      ? (options.pages.signIn ?? `${options.basePath}/signin`)
      : (options.pages.error ?? `${options.basePath}/error`);
  const url = new URL(page, options.origin);
  url.searchParams.set("error", type);
  return { redirect: url.href, cookies };
}
