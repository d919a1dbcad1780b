/**
 * The one place that turns an error into an answer.
 *
 * Actions throw; nothing else in authlib decides what a failure looks like. An action that must set a
 * cookie even when it fails (the WebAuthn callback clears its single-use challenge cookie, failed or not)
 * attaches it to the error with {@link withFailureCookies}; the answer carries it, and an integration
 * calling the in-process API reads it with {@link failureCookies}.
 *
 * The policy, by the error's class (never its message):
 * - an operation presented as JSON (a route scripts call with `fetch`, its declaration says so): the
 *   class's `status` ({@link jsonRefusal}); a form's refusal is its declaration's to present;
 * - JSON answers: `UnknownAction` 400, `RouteNotFound` 404, `MethodNotAllowed` 405, `UntrustedHost` 400;
 * - every other error: a redirect to the sign-in page (sign-in errors) or the error page, with
 *   `?error=<type>` (and `&code=` for an error that names its cause: `AuthError.code`). Types that are not client-safe show as
 *   `Configuration`: their details go to the server log only.
 *
 * @module http/error-response
 */

import { inDevelopment } from "../env/read.js";
import { AuthError, type ErrorType, isClientSafeError, RateLimited } from "../errors.js";
import type { PagesOptions } from "../types/config.js";
import type { AuthAction, ResponseInternal } from "../types/internal.js";
import type { Cookie } from "./cookies.js";
import { noStoreHeaders } from "./response.js";

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

/**
 * The answer of each error type that is not a page: JSON with `status`, the type shown as `shownAs`
 * (default: the type itself) and the message `message` (default: the error's own). Every type not listed
 * here leads to a page: the sign-in page for sign-in errors (`kind: "signIn"`), the error page otherwise.
 */
interface JsonErrorRule {
  status: number;
  shownAs?: ErrorType;
  message?: string;
}

/** The one table of non-page answers, keyed by error type. */
const jsonAnswers: Partial<Record<ErrorType, JsonErrorRule>> = {
  UnknownAction: { status: 400 },
  RouteNotFound: { status: 404, shownAs: "UnknownAction", message: "Not found." },
  MethodNotAllowed: { status: 405, shownAs: "UnknownAction" },
  UntrustedHost: { status: 400, message: "This host is not trusted." },
};

/**
 * The HTTP status a route answered as JSON gives `error` (401 `SessionRequired`, 404 `SessionNotFound`,
 * 409 `LastSignInMethod`, …: the error class's own `status`), or `undefined` for a type that is the
 * operator's (a 500 `Configuration`). Integrations answer the same.
 */
export function sessionErrorStatus(error: AuthError): number | undefined {
  return error.status;
}

/**
 * A refusal of a route scripts call with `fetch` (an operation presented as JSON): `{ error: <type> }`
 * with the error class's status, or `{ error: "Configuration" }` and 500 for an error that is the
 * operator's; never cached; `Retry-After` (seconds) for a limit that knows when it ends. `failure` has the
 * pipeline log, trace and audit it.
 */
export function jsonRefusal(error: AuthError): ResponseInternal {
  const status = error.status;
  const headers: Record<string, string> = { ...noStoreHeaders };
  if (error instanceof RateLimited && error.retryAfter) headers["Retry-After"] = `${error.retryAfter}`;
  // An app error class (a feature's own) is named by its class, authlib's by its type (the same name).
  const body = status === undefined ? { error: "Configuration" } : { ...error.details, error: error.name };
  return { status: status ?? 500, body, headers, cookies: failureCookies(error), failure: error };
}

/** What the client is told when the error's details are the operator's only. */
export const CONFIGURATION_MESSAGE = "There is a problem with the server configuration. Check the server logs for more information.";

/**
 * The JSON answer of an error refused before any route ran (a path or method authlib does not answer,
 * an untrusted host, a configuration error): its table entry, or a 500 `Configuration` for a type that
 * is not the client's to see.
 */
export function refusalOf(error: AuthError): { status: number; type: string; message: string } {
  const rule = jsonAnswers[error.type];
  if (rule) return { status: rule.status, type: rule.shownAs ?? error.type, message: rule.message ?? error.message };
  return { status: 500, type: "Configuration", message: CONFIGURATION_MESSAGE };
}

/** Where the error pages are, for {@link errorResult}. */
export interface ErrorPages {
  /** The app's origin: the pages are resolved against it. */
  origin: string;
  basePath: string;
  pages: Partial<PagesOptions>;
}

/** What {@link errorResult} reads of the failed request. */
export interface FailedRequest {
  action: AuthAction;
  method: string;
  /** The provider of a sign-in (`/signin/<id>`, `/callback/<id>`). */
  providerId?: string;
  /** The posted form: a failed sign-in form's address goes back to it. */
  body?: Record<string, unknown>;
}

/** The longest address a failed form gets back (RFC 5321's limit on a path). */
const MAX_KEPT_ADDRESS = 254;

/**
 * A credentials form whose details were refused (`CredentialsSignin`), on the sign-in page's URL: `provider` (the page shows the error in that
 * form and names it) and the `email` typed there, so that the person corrects it rather than types it again.
 * Never a password or any other field. The address is the person's own, in their own browser's URL; the
 * pages' Referrer-Policy (`same-origin`) keeps it from other sites.
 */
function keepFailedForm(url: URL, request: FailedRequest | undefined): void {
  if (request?.method !== "POST" || (request.action !== "callback" && request.action !== "signin")) return;
  const { providerId, body } = request;
  if (providerId === undefined) return;
  url.searchParams.set("provider", providerId);
  const email = body?.email;
  if (typeof email === "string" && email.length <= MAX_KEPT_ADDRESS && !/[\r\n]/.test(email)) url.searchParams.set("email", email);
}

/** The answer to a failed request (see the module comment). The caller logs the error. */
export function errorResult(error: AuthError, where: ErrorPages, request?: FailedRequest): ResponseInternal {
  const cookies = failureCookies(error);
  const rule = jsonAnswers[error.type];
  if (rule) {
    const { status, type, message } = refusalOf(error);
    return { status, body: { error: type, message }, cookies };
  }

  const type = isClientSafeError(error) ? error.type : "Configuration";
  const page =
    error.kind === "signIn" && type !== "Configuration"
      ? (where.pages.signIn ?? `${where.basePath}/signin`)
      : (where.pages.error ?? `${where.basePath}/error`);
  const url = new URL(page, where.origin);
  url.searchParams.set("error", type);
  // In development (NODE_ENV=development) the page may name the type the server logged, never its message.
  if (type === "Configuration" && inDevelopment()) url.searchParams.set("cause", error.type);
  if (error.code && type !== "Configuration") url.searchParams.set("code", error.code);
  if (type === "CredentialsSignin") keepFailedForm(url, request);
  return { redirect: url.href, cookies };
}
