/**
 * The one path every request takes, whether it came over HTTP (`auth.handler`, `Auth()`) or from the
 * app's code in process (`auth.api`):
 *
 * 1. the configuration, resolved once per instance (`resolve.ts`): a configuration error stops here;
 * 2. the parsed request (`http/request.ts` for HTTP; `api.ts` builds it for an operation): a path or
 *    method authlib does not answer is `RouteNotFound` / `MethodNotAllowed`;
 * 3. the origin (`http/origin.ts`, compiled once): a host the trusted-host list refuses is `UntrustedHost`;
 * 4. the operation (the router's declaration) and the per-request context it declares it needs
 *    (`request-context.ts`): CSRF state, callback URL;
 * 5. its input, parsed once by its declaration's schema (`http/input.ts`): from the body or query over
 *    HTTP, from the caller's typed object for `auth.api`; then, for an operation that changes how someone
 *    signs in, its owner present (`sign-in/owner-present.ts`);
 * 6. the handler, which returns a result or throws; a thrown error carries the cookies it must still set
 *    (`http/error-response.ts`); over HTTP the declaration presents it, `auth.api` gets it thrown.
 *
 * @module pipeline
 */

import { loadAuditWriter } from "../audit/index.js";
import { type AuthError, RateLimited } from "../errors.js";
import type { Cookie } from "../http/cookies.js";
import { assertCsrf } from "../http/csrf.js";
import { asAuthError, CONFIGURATION_MESSAGE, errorResult, jsonRefusal, refusalOf } from "../http/error-response.js";
import { requestFields } from "../http/input.js";
import { logFailure } from "../http/log-level.js";
import { parseRequest } from "../http/request.js";
import { type AuthAnswer, jsonErrorAnswer, toAnswer } from "../http/response.js";
import { pageHeaders } from "../http/security-headers.js";
import { loadPages } from "../pages/lazy.js";
import { guardedOperation, requireOwnerPresent } from "../sign-in/owner-present.js";
import { noteFailure, type Telemetry } from "../telemetry/index.js";
import type { Session } from "../types/config.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../types/internal.js";
import type { OperationDeclaration, OperationNeeds } from "../types/operation.js";
import { preflightAnswer } from "./preflight.js";
import { requestContext } from "./request-context.js";
import type { ResolvedAuth } from "./resolve.js";

/** What an operation that declares no needs needs: nothing (one object, not one per request). */
const NO_NEEDS: OperationNeeds = Object.freeze({});

/** A configuration that passed the start-up check. */
export type UsableAuth = ResolvedAuth & { options: NonNullable<ResolvedAuth["options"]> };

const CONFIGURATION_REFUSAL = { status: 500, type: "Configuration", message: CONFIGURATION_MESSAGE };

/** What an integration knows about a request besides the `Request` itself. */
export interface AuthRequestOptions {
  /**
   * The address of the connection the request came on (Node's `socket.remoteAddress`, Qwik's
   * `clientConn.ip`, …): the per-client rate limits count by it (see `rateLimit.clientAddress`). Without
   * it, per-client limits are skipped; per-account and per-mailbox limits still apply.
   */
  clientAddress?: string;
}

/** The resolved configuration when usable; throws its (already logged) configuration error otherwise. */
export function usable(resolved: ResolvedAuth): UsableAuth {
  if (resolved.error || !resolved.options) throw resolved.error ?? asAuthError(new Error("The configuration could not be read."));
  return resolved as UsableAuth;
}

/** The app's origin for `request`; throws `UntrustedHost` (logged) for a host the trusted-host list refuses. */
function originOf(resolved: UsableAuth, request: RequestInternal): string {
  try {
    return resolved.origin(request, request.url);
  } catch (error) {
    // Logged for the operator (a warning); no answer names the host, so a forged one is never reflected.
    logFailure(resolved.logger, error as Error);
    throw error;
  }
}

/**
 * Runs the route of a parsed HTTP request: its origin, its context, its operation (the router's), whose
 * input is the request's form or JSON body (a POST) or query (a GET). Returns the result with the cookies
 * of the request context first; a refusal the operation presents (JSON, its form's page) is a result too.
 * Throws an `AuthError`, logged (`RateLimited` as the `rate-limited` warning: a refusal by a limit is
 * expected traffic, and names no identifier).
 */
export async function perform(resolved: UsableAuth, request: RequestInternal): Promise<ResponseInternal> {
  return performed(resolved, request, () => {
    const operation = resolved.router.operationOf(request);
    const fields = requestFields(operation, request);
    return { operation, fields, run: (options) => presented(operation, options, request, fields) };
  });
}

/**
 * Runs `operation` for `auth.api`: the same path as {@link perform}, with `input` (the caller's typed
 * object) as the fields its schema parses. A refusal is always thrown, typed; the result is the handler's,
 * typed as the declaration says.
 */
export async function performCall<Body>(
  resolved: UsableAuth,
  request: RequestInternal,
  operation: OperationDeclaration<unknown, Body>,
  input: object,
): Promise<ResponseInternal<Body>> {
  const run = (options: InternalOptions) => runOperation(operation, options, request, input);
  return performed(resolved, request, () => ({ operation, fields: input, run }));
}

/** The origin, then the route `routeOf` finds (a path or method it does not answer throws), run and reported. */
async function performed<Body>(
  resolved: UsableAuth,
  request: RequestInternal,
  routeOf: () => RouteRun<Body>,
): Promise<ResponseInternal<Body>> {
  const origin = originOf(resolved, request);
  let result: ResponseInternal<Body>;
  try {
    result = await runRoute(resolved, request, origin, routeOf());
  } catch (error) {
    const authError: AuthError = asAuthError(error);
    reportFailure(resolved, request, authError);
    throw authError;
  }
  if (result.failure) reportFailure(resolved, request, asAuthError(result.failure));
  return result;
}

/** Logs, traces and audits a failed request, thrown or answered as a page (`ResponseInternal.failure`). */
function reportFailure(resolved: UsableAuth, request: RequestInternal, error: AuthError): void {
  const rateLimited = error instanceof RateLimited;
  // At the level of what it means (http/log-level.ts): a user's own failure is debug, a client's signal warn.
  logFailure(resolved.logger, error, resolved.options?.quietErrors);
  noteFailure(request, error, rateLimited);
  const audit = resolved.audit;
  if (audit) void loadAuditWriter().then(({ auditFailure }) => auditFailure(audit, request, error, rateLimited));
}

/** The operation a request runs, the fields its input is parsed from, and how it runs once the context is made. */
interface RouteRun<Body> {
  operation: OperationDeclaration<unknown, Body>;
  fields: object;
  run: (options: InternalOptions) => Promise<ResponseInternal<Body>>;
}

async function runRoute<Body>(
  resolved: UsableAuth,
  request: RequestInternal,
  origin: string,
  { operation, fields, run }: RouteRun<Body>,
): Promise<ResponseInternal<Body>> {
  const { options, cookies } = await requestContext(resolved, request, operation.needs ?? NO_NEEDS, origin, fields);
  if (resolved.audit) options.events = (await loadAuditWriter()).auditedEvents(resolved.audit, options.events, request);
  const runtime = resolved.telemetry?.config.userId === "hashed" ? resolved.telemetry.runtime : undefined;
  const trace = runtime && request.trace;
  if (runtime && trace) options.events = runtime.namingUser(options.events, trace.span, options.secret[0] as string);
  // Integrations that protect POSTs themselves skip the check on purpose; warn (once per instance)
  // only when a client asks for a token that cannot exist.
  if (options.skipCSRFCheck && request.action === "csrf" && !options.warned.has("csrf-disabled")) {
    options.warned.add("csrf-disabled");
    options.logger.warn("csrf-disabled");
  }
  const ran = await run(options);
  const response = options.hooks?.pageBanner && isPage(ran) ? await withPageBanner(options, request, ran) : ran;
  // Copied only when the context has cookies to put first (most session checks have none).
  return cookies.length === 0 ? response : { ...response, cookies: [...cookies, ...(response.cookies ?? [])] };
}

/** True for a built-in page's answer (an HTML document). */
function isPage(response: ResponseInternal<unknown>): boolean {
  return typeof response.body === "string" && response.headers?.["Content-Type"]?.startsWith("text/html") === true;
}

/** `page` with the features' banner (`SignInHooks.pageBanner`) at the top of its body, when they give one. */
async function withPageBanner<Body>(
  options: InternalOptions,
  request: RequestInternal,
  page: ResponseInternal<Body>,
): Promise<ResponseInternal<Body>> {
  const banner = await options.hooks?.pageBanner?.(options, request);
  if (!banner) return page;
  const { withBanner } = await import("../pages/impersonation-banner.js");
  const body = withBanner(String(page.body), banner.html) as Body;
  return { ...page, body, cookies: [...banner.cookies, ...(page.cookies ?? [])] };
}

/**
 * The operation's handler, after the CSRF proof it declares, its input parsed from `fields` (once, by its
 * schema), and the owner-present rule (`sign-in/owner-present.ts`: one check for every operation that
 * changes how someone signs in, declared by its `needs`). Throws every refusal.
 */
async function runOperation<Body>(
  operation: OperationDeclaration<unknown, Body>,
  options: InternalOptions,
  request: RequestInternal,
  fields: object,
): Promise<ResponseInternal<Body>> {
  if (operation.needs?.csrf === "prove") assertCsrf(operation.name, options.csrfTokenVerified);
  const input = parseInput(operation, options, request, fields);
  const owner = guardedOperation(options, request, operation, input);
  if (owner) await requireOwnerPresent(options, request, owner, fields);
  return operation.handler(options, request, input);
}

/**
 * The operation's input, parsed by its schema (`undefined` without one). A POST that did not prove its
 * CSRF token is refused as such first: a forged request learns nothing about the fields it sent.
 */
function parseInput(operation: OperationDeclaration, options: InternalOptions, request: RequestInternal, fields: object): unknown {
  if (!operation.input) return undefined;
  try {
    return operation.input.parse(fields);
  } catch (error) {
    if (request.method === "POST" && operation.needs?.csrf) assertCsrf(operation.name, options.csrfTokenVerified);
    throw error;
  }
}

/**
 * {@link runOperation} over HTTP: a refusal is presented as the operation's declaration says (JSON, or
 * its form's page), else thrown to the general policy (`http/error-response.ts`).
 */
async function presented(
  operation: OperationDeclaration,
  options: InternalOptions,
  request: RequestInternal,
  fields: object,
): Promise<ResponseInternal> {
  try {
    return await runOperation(operation, options, request, fields);
  } catch (error) {
    const presentation = operation.presentation;
    if (!presentation || presentation === "page") throw error;
    const authError = asAuthError(error);
    const answer = presentation === "json" ? jsonRefusal(authError) : await presentation(options, request, authError);
    if (!answer) throw error;
    return answer;
  }
}

/**
 * The session of `request` (a parsed `GET <basePath>/session`), read through the session strategy, and
 * the cookies to set (a refreshed or cleared session cookie). Runs the `session` (and, for JWT sessions,
 * `jwt`) callback, never the `redirect` callback. Throws (logged) `UntrustedHost`, or the
 * adapter's failure; an unreadable session is `null`, not an error.
 */
export async function readSession(resolved: UsableAuth, request: RequestInternal): Promise<{ session: Session | null; cookies: Cookie[] }> {
  const origin = originOf(resolved, request);
  try {
    const { options } = await requestContext(resolved, request, {}, origin);
    const read = () => options.sessionStrategy.read(options, request);
    const { session, cookies } = await readTraced(resolved.telemetry, options.session.strategy, read);
    return { session: session && typeof session === "object" ? session : null, cookies };
  } catch (error) {
    const authError = asAuthError(error);
    logFailure(resolved.logger, authError, resolved.options.quietErrors);
    throw authError;
  }
}

/**
 * An in-process session read (no request span around it) as its own `authlib.session.read` span, when the
 * instance's telemetry is on: a child of the app's active span, with the adapter's calls below it.
 */
async function readTraced<T>(telemetry: Telemetry | undefined, strategy: string, read: () => Promise<T>): Promise<T> {
  if (!telemetry) return read();
  if (!telemetry.settled) await telemetry.ready;
  const runtime = telemetry.runtime;
  return runtime ? runtime.step("authlib.session.read", { "authlib.session.strategy": strategy }, read, true) : read();
}

/**
 * What the HTTP surface answers to `request`, as data. Never throws: bad input gets a 4xx or the error
 * page, a configuration error a generic 500 whose details went to the server log only.
 */
export async function answer(resolved: ResolvedAuth, request: Request, options: AuthRequestOptions = {}): Promise<AuthAnswer> {
  if (resolved.ready) await resolved.ready;
  if (request.method === "OPTIONS") {
    const preflight = preflightAnswer(resolved.router, resolved.basePath, request);
    if (preflight) return preflight;
  }
  let parsed: RequestInternal;
  try {
    parsed = await parseRequest(request, resolved.basePath, resolved.router, options.clientAddress);
  } catch (error) {
    const refused = asAuthError(error);
    resolved.logger.debug(`Refused request: ${refused.type}`);
    const { status, type, message } = refusalOf(refused);
    return jsonErrorAnswer(status, type, message);
  }
  // Logged once, when the configuration was resolved.
  // A configuration error is the operator's whatever its type: a 500 that names no detail.
  if (resolved.error || !resolved.options) return refusal(parsed, resolved, CONFIGURATION_REFUSAL);
  const ready = resolved as UsableAuth;

  let origin: string;
  try {
    origin = originOf(ready, parsed);
  } catch (error) {
    return refusal(parsed, resolved, refusalOf(asAuthError(error)));
  }

  const telemetry = resolved.telemetry;
  if (telemetry) {
    // Only the first requests of an instance wait for the runtime to load; then it is a property read.
    if (!telemetry.settled) await telemetry.ready;
    const runtime = telemetry.runtime;
    const record = runtime?.startRequest(parsed, resolved.basePath, telemetry.providers);
    if (runtime && record) {
      parsed.trace = record;
      // answerParsed never throws: the request's span always ends.
      const answered = await runtime.within(record, () => answerParsed(ready, request, parsed, origin));
      runtime.endRequest(parsed, record, answered.status);
      return answered;
    }
  }
  return answerParsed(ready, request, parsed, origin);
}

/** {@link answer} for a parsed request on a known origin. */
async function answerParsed(resolved: UsableAuth, request: Request, parsed: RequestInternal, origin: string): Promise<AuthAnswer> {
  // Fetch clients ask for a redirect as JSON; only a redirect reads the header.
  const asJson = (result: ResponseInternal) => result.redirect !== undefined && request.headers.has("x-auth-return-redirect");
  try {
    const result = await perform(resolved, parsed);
    return toAnswer(result, asJson(result));
  } catch (error) {
    try {
      const where = { origin, basePath: resolved.basePath, pages: resolved.config.pages ?? {} };
      const result = errorResult(asAuthError(error), where, parsed);
      return toAnswer(result, asJson(result));
    } catch (secondary) {
      // Last resort: never let an exception escape to the framework.
      resolved.logger.error(secondary as Error);
      return jsonErrorAnswer(500, "Configuration", CONFIGURATION_MESSAGE);
    }
  }
}

/**
 * A request refused before any action runs (a configuration error, an untrusted host): the error page for
 * a page a browser navigates to, JSON for the rest, with the status of the error's type. Links are
 * relative: the request's host is unknown or not to be believed here.
 */
async function refusal(parsed: RequestInternal, resolved: ResolvedAuth, refused: ReturnType<typeof refusalOf>): Promise<AuthAnswer> {
  const { status, type, message } = refused;
  const operation = parsed.route === undefined ? undefined : resolved.router.operationOf(parsed);
  if (parsed.method === "GET" && operation?.presentation === "page") {
    const { renderErrorPage, text } = await loadPages(resolved.config, parsed.request);
    const page = renderErrorPage({
      text,
      error: "Configuration",
      signinUrl: `${resolved.basePath}/signin`,
      homeUrl: "/",
      theme: resolved.config.theme ?? {},
    });
    return { status, headers: await pageHeaders(page.html), cookies: [], body: page.html };
  }
  return jsonErrorAnswer(status, type, message);
}

/**
 * Where the HTTP surface would send the browser after `error` (the sign-in page for sign-in errors, the
 * error page otherwise, with `?error=<type>` and `&code=` for `CredentialsSignin`). An absolute URL; on a
 * host the trusted-host list refuses, on the request's own origin.
 */
export function errorRedirect(resolved: ResolvedAuth, error: unknown, request: Request): string {
  const url = new URL(request.url);
  let origin = url.origin;
  try {
    origin = resolved.origin(request, url);
  } catch {
    // A refused host (or a configuration error): the request's own origin, which the integration turns into a path.
  }
  const where = { origin, basePath: resolved.basePath, pages: resolved.config.pages ?? {} };
  const result = errorResult(asAuthError(error), where);
  return result.redirect ?? new URL(`${resolved.basePath}/error?error=Configuration`, origin).href;
}
