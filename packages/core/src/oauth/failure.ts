/**
 * Turning protocol failures into `OAuthCallbackError`, without carrying secrets into logs.
 *
 * @module oauth/failure
 */
import * as oauth from "oauth4webapi";
import { AuthError, OAuthCallbackError } from "../errors.js";

/** Keys whose values are secrets or single-use credentials; they are replaced in error causes. */
const SECRET_KEYS = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "code",
  "code_verifier",
  "client_secret",
  "client_assertion",
  "assertion",
  "device_code",
  "password",
]);

const REDACTED = "[redacted]";

/**
 * A copy of `value` with secret-named entries replaced. oauth4webapi puts the offending response body
 * into its errors' `cause` (a token response that failed validation still holds the access token), and
 * error causes end up in logs.
 */
function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return REDACTED;
  if (value instanceof URLSearchParams) {
    const copy = new URLSearchParams(value);
    for (const key of SECRET_KEYS) if (copy.has(key)) copy.set(key, REDACTED);
    return copy;
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_KEYS.has(key) ? REDACTED : redact(item, depth + 1)]));
  }
  return value;
}

/** Replaces the `cause` of an oauth4webapi error by a redacted copy (in place) and returns the error. */
export function redactError<E extends Error>(error: E): E {
  if (!("cause" in error) || error.cause === undefined) return error;
  try {
    Object.defineProperty(error, "cause", { value: redact(error.cause), configurable: true, writable: true, enumerable: false });
  } catch {
    // A frozen cause stays as it is; oauth4webapi's errors are not frozen.
  }
  return error;
}

/**
 * `error` as an `OAuthCallbackError` with `cause.err` = the underlying error (its cause redacted) and
 * `cause.providerId`. An authorization error response (`?error=access_denied`) and an OAuth error body
 * of the token endpoint also put `error` and `error_description` into the cause. AuthErrors pass through.
 */
export function callbackError(providerId: string, error: unknown, message?: string): AuthError {
  if (error instanceof AuthError) return error;
  const err = error instanceof Error ? redactError(error) : new Error(String(error));
  if (err instanceof oauth.AuthorizationResponseError) {
    const cause: Record<string, unknown> = { providerId, err, error: err.error };
    for (const key of ["error_description", "error_uri"]) {
      const value = err.cause instanceof URLSearchParams ? err.cause.get(key) : null;
      if (value !== null) cause[key] = value;
    }
    const refused = new OAuthCallbackError(`The provider returned an error: ${err.error}.`, { cause });
    if (err.error === "access_denied") refused.code = "access_denied";
    return refused;
  }
  if (err instanceof oauth.ResponseBodyError) {
    return new OAuthCallbackError(message ?? `The provider answered with an error: ${err.error}.`, {
      cause: { providerId, err, error: err.error, error_description: err.error_description, status: err.status },
    });
  }
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    const parameters = err.cause.find((challenge) => challenge.parameters.error)?.parameters;
    const error = parameters?.error ?? "unauthorized";
    return new OAuthCallbackError(message ?? `The provider refused the request: ${error}.`, {
      cause: { providerId, err, error, error_description: parameters?.error_description, status: err.status },
    });
  }
  return new OAuthCallbackError(message ?? err.message, { cause: { providerId, err } });
}
