/**
 * The in-process API for framework integrations: the same actions as `Auth()`, without HTTP in between.
 *
 * An integration that runs in the same process as authlib (a Qwik City plugin, a server action) calls
 * {@link runAuthAction} with the request (or its parts) and gets the action's result as data: where to
 * redirect, the cookies to set (as objects, for the framework's own cookie jar), the body, status and
 * headers. Failures are thrown as `AuthError`s (logged already), with the cookies the action still
 * wants set available from {@link failureCookies}. {@link readSession} reads the session directly through
 * the session strategy, with no request to `/session`.
 *
 * Both resolve the configuration once per configuration object, like `Auth()`: pass the same object on
 * every request (see `docs/architecture.md`).
 *
 * @module integration
 */
import type { AuthRequestOptions } from "./auth.js";
import { UnknownAction } from "./errors.js";
import type { Cookie } from "./http/cookies.js";
import { asAuthError, errorResult } from "./http/error-response.js";
import { type AuthRequestParts, parseRequest, parseRequestParts, requestCookies } from "./http/request.js";
import { requestContext } from "./http/request-context.js";
import type { RequestInternal } from "./internal-types.js";
import { originOf, runRoute, usable } from "./pipeline.js";
import { resolveAuth } from "./resolve.js";
import type { AuthConfig, Session } from "./types.js";

export { failureCookies } from "./http/error-response.js";
export type { AuthRequestParts } from "./http/request.js";

/** What an action answers, as data. */
export interface AuthResult {
  /** Where to send the browser (an absolute URL); when set, `body` is absent. */
  redirect?: string;
  /** Cookies to set, in order (a `maxAge` of 0 deletes one). */
  cookies: Cookie[];
  /** The JSON value or the HTML/JS text of the answer. */
  body?: unknown;
  /** The HTTP status (200 when absent; a redirect is a 302 or, for fetch clients, 200 `{url}`). */
  status?: number;
  /** Headers of the answer (`Content-Type`, `Cache-Control`, the pages' security headers). */
  headers?: Record<string, string>;
}

function isRequest(value: Request | Partial<AuthRequestParts>): value is Request {
  return typeof Request !== "undefined" && value instanceof Request;
}

/**
 * Runs the authlib action that `request` addresses (e.g. `POST <basePath>/signin/github`) and returns its
 * result. Throws an `AuthError`: the configuration's error (`MissingSecret`, …), `UnknownAction` for a
 * path or method authlib does not answer, `UntrustedHost`, or the action's own failure
 * (`CredentialsSignin`, `MissingCSRF`, `AccessDenied`, …). Every error is logged before it is thrown.
 *
 * With `AuthRequestParts`, `body` is the already-parsed POST body; the `Request` handed to
 * `authorize()` carries the URL, method and headers only. The connection's address is `clientAddress`
 * of the parts, or of `options` with a `Request`. `RateLimited` refusals are logged at warn level.
 */
export async function runAuthAction(
  request: Request | AuthRequestParts,
  config: AuthConfig,
  options: AuthRequestOptions = {},
): Promise<AuthResult> {
  const resolved = usable(resolveAuth(config));
  let parsed: RequestInternal;
  try {
    parsed = isRequest(request)
      ? await parseRequest(request, resolved.basePath, options.clientAddress)
      : await parseRequestParts(request, resolved.basePath);
  } catch (error) {
    resolved.logger.debug(`Refused request: ${(error as Error).message}`);
    throw error;
  }
  let origin: string;
  try {
    origin = originOf(resolved, parsed);
  } catch (error) {
    resolved.logger.error(error as Error);
    throw error;
  }
  const result = await runRoute(resolved, parsed, origin);
  return { ...result, cookies: result.cookies ?? [] };
}

/** A request as {@link readSession} reads it: its URL (for the origin) and headers (for the cookies). */
export type SessionRequest = Request | Pick<AuthRequestParts, "url" | "headers">;

/**
 * The session of `request` (or `null`), read directly through the session strategy (JWT or database),
 * and the cookies to set on the response (a refreshed or cleared session cookie). Runs the `session`
 * (and, for JWT sessions, `jwt`) callback like `GET <basePath>/session`, never the `redirect` callback.
 * Throws the configuration's error or `UntrustedHost`; an unreadable session is `null`, not an error.
 */
export async function readSession(request: SessionRequest, config: AuthConfig): Promise<{ session: Session | null; cookies: Cookie[] }> {
  const resolved = usable(resolveAuth(config));
  const parsed = sessionRequest(request);
  const { options } = await requestContext(resolved, parsed, {}, originOf(resolved, parsed));
  const { session, cookies } = await options.sessionStrategy.read(options, parsed);
  return { session: session && typeof session === "object" ? session : null, cookies };
}

/** The request of a session read, as a parsed `GET <basePath>/session` would be (no body, no query). */
function sessionRequest(request: SessionRequest): RequestInternal {
  let original: Request;
  try {
    original = isRequest(request) ? request : new Request(request.url, { headers: request.headers });
  } catch (error) {
    throw new UnknownAction("The request URL or headers are not valid.", { cause: error as Error });
  }
  return {
    request: original,
    url: new URL(original.url),
    method: "GET",
    action: "session",
    query: {},
    body: {},
    cookies: requestCookies(original.headers),
    headers: original.headers,
  };
}

/**
 * Where `Auth()` would send the browser after `error` (the sign-in page for sign-in errors, the error page
 * otherwise, with `?error=<type>` and `&code=` for `CredentialsSignin`): the same policy, from the same
 * place (`http/error-response.ts`), for an integration that caught the error from {@link runAuthAction}
 * and answers with its own redirect. An absolute URL; on a host the trusted-host list refuses, on the
 * request's own origin.
 */
export function errorRedirect(error: unknown, request: SessionRequest, config: AuthConfig): string {
  const resolved = resolveAuth(config);
  const parsed = sessionRequest(request);
  let origin = parsed.url.origin;
  try {
    origin = originOf(resolved, parsed);
  } catch {
    // Refused host: the request's own origin, which the integration turns into a path.
  }
  const where = { origin, basePath: resolved.basePath, pages: config.pages ?? {} };
  const result = errorResult(asAuthError(error), { action: "signin", method: "POST" }, where);
  return result.redirect ?? new URL(`${resolved.basePath}/error?error=Configuration`, origin).href;
}
