/**
 * The one place that turns an error into an answer.
 *
 * Actions throw; nothing else in authlib decides what a failure looks like. An action that must set a
 * cookie even when it fails (the WebAuthn callback clears its single-use challenge cookie, failed or not)
 * attaches it to the error with {@link withFailureCookies}; the answer carries it, and an integration
 * calling the in-process API reads it with {@link failureCookies}.
 *
 * The policy:
 * - `RateLimited` on a route fetch clients call (`POST /session`, `GET /webauthn-options`): 429 with
 *   `Retry-After` (seconds) when the limit knows when it ends;
 * - `POST /session` (a session update): 413 for too much data, 400 for any other bad input, body `null`;
 * - `UnknownAction`: 400 JSON;
 * - every other error: a redirect to the sign-in page (sign-in errors) or the error page, with
 *   `?error=<type>` (and `&code=` for `CredentialsSignin`). Types that are not client-safe show as
 *   `Configuration`: their details go to the server log only.
 *
 * @module http/error-response
 */
import { AuthError, CredentialsSignin, isClientSafeError, RateLimited, SessionDataTooLarge, UnknownAction } from "../errors.js";
import type { AuthAction, ResponseInternal } from "../internal-types.js";
import type { PagesOptions } from "../types.js";
import type { Cookie } from "./cookies.js";

const attached = new WeakMap<AuthError, Cookie[]>();

/**
 * `error` as an `AuthError` (anything else is wrapped by `wrap`) carrying `cookies` to set on the failure
 * answer. Returns the error to throw.
 */
export function withFailureCookies(error: unknown, cookies: Cookie[], wrap: (cause: unknown) => AuthError): AuthError {
  const authError = error instanceof AuthError ? error : wrap(error);
  attached.set(authError, [...(attached.get(authError) ?? []), ...cookies]);
  return authError;
}

/**
 * The cookies an action attached to a failure (e.g. the cleared WebAuthn challenge): an integration that
 * catches an `AuthError` from `runAuthAction` sets them on its response.
 */
export function failureCookies(error: unknown): Cookie[] {
  return error instanceof AuthError ? [...(attached.get(error) ?? [])] : [];
}

/** `error` as an `AuthError` (an unexpected one is wrapped, so its details stay in the log). */
export function asAuthError(error: unknown): AuthError {
  return error instanceof AuthError ? error : new AuthError("Unexpected error.", { cause: error as Error });
}

/** Where the error pages are, for {@link errorResult}. */
export interface ErrorPages {
  /** The app's origin: the pages are resolved against it. */
  origin: string;
  basePath: string;
  pages: Partial<PagesOptions>;
}

/** The answer to a failed request (see the module comment). The caller logs the error. */
export function errorResult(error: AuthError, request: { action: AuthAction; method: string }, where: ErrorPages): ResponseInternal {
  const cookies = failureCookies(error);
  const update = request.action === "session" && request.method === "POST";
  // Routes that scripts call with fetch: a refusal there is a 429, not a page.
  if (error instanceof RateLimited && (update || request.action === "webauthn-options")) {
    const headers: Record<string, string> = error.retryAfter ? { "Retry-After": `${error.retryAfter}` } : {};
    return { status: 429, headers, body: update ? null : { error: error.type }, cookies };
  }
  if (update) {
    // Bad input to an update is the client's: 413 for too much data, 400 for everything else.
    return { status: error instanceof SessionDataTooLarge ? 413 : 400, body: null, cookies };
  }
  if (error instanceof UnknownAction) return { status: 400, body: { error: "UnknownAction", message: error.message }, cookies };

  const type = isClientSafeError(error) ? error.type : "Configuration";
  const page =
    error.kind === "signIn" && type !== "Configuration"
      ? (where.pages.signIn ?? `${where.basePath}/signin`)
      : (where.pages.error ?? `${where.basePath}/error`);
  const url = new URL(page, where.origin);
  url.searchParams.set("error", type);
  if (error instanceof CredentialsSignin) url.searchParams.set("code", error.code);
  return { redirect: url.href, cookies };
}
