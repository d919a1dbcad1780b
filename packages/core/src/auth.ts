/**
 * `Auth(request, config)`: the whole HTTP surface of authlib. Every framework integration calls it.
 */
import { handleAction } from "./actions/index.js";
import { assertConfig } from "./assert.js";
import { initOptions, normaliseBasePath, resolveProviders, resolveSessionOptions } from "./config.js";
import { AuthError, CredentialsSignin, isClientSafeError, SessionDataTooLarge, UnknownAction, UntrustedHost } from "./errors.js";
import { resolveOrigin } from "./http/origin.js";
import { parseRequest } from "./http/request.js";
import { jsonError, toResponse } from "./http/response.js";
import type { RequestInternal } from "./internal-types.js";
import { createLogger } from "./logger.js";
import { renderErrorPage } from "./pages/index.js";
import { pageHeaders } from "./pages/security-headers.js";
import type { AuthConfig, LoggerInstance } from "./types.js";

/**
 * Configuration errors already logged, per log destination, so a broken config does not flood the log on
 * every request (integrations rebuild the config per request; the logger function is what stays the same).
 */
const loggedConfigErrors = new WeakMap<object, Set<string>>();
const defaultLogDestination = {};
const warned = new Set<string>();

function logOnce(config: AuthConfig, logger: LoggerInstance, error: AuthError): void {
  const destination = config.logger?.error ?? defaultLogDestination;
  const seen = loggedConfigErrors.get(destination) ?? new Set<string>();
  loggedConfigErrors.set(destination, seen);
  const key = `${error.type}:${error.message}`;
  if (seen.has(key)) return;
  if (seen.size > 100) seen.clear();
  seen.add(key);
  logger.error(error);
}

function warnOnce(logger: LoggerInstance, code: Parameters<LoggerInstance["warn"]>[0]): void {
  if (warned.has(code)) return;
  warned.add(code);
  logger.warn(code);
}

/** What a client is told about any configuration problem: the details go to the server log only. */
const CONFIGURATION_MESSAGE = "There is a problem with the server configuration. Check the server logs for more information.";

/** Pages a browser navigates to: a configuration error there is shown as the error page. */
const pageActions = new Set(["signin", "signout", "error", "verify-request"]);

/**
 * Answers a request under `config.basePath` (default `/auth`). Never throws: bad input gets a 4xx or the
 * error page, a configuration error a generic 500 whose details go to the server log only.
 */
export async function Auth(request: Request, config: AuthConfig): Promise<Response> {
  const logger = createLogger(config);
  let parsed: RequestInternal;
  try {
    parsed = await parseRequest(request, normaliseBasePath(config.basePath));
  } catch (error) {
    const message = (error as Error).message;
    logger.debug(`Refused request: ${message}`);
    return jsonError(message.startsWith("Method") ? 405 : 404, "UnknownAction", message.startsWith("Method") ? message : "Not found.");
  }

  if (config.debug) warnOnce(logger, "debug-enabled");
  const configError = checkConfig(config);
  if (configError) {
    logOnce(config, logger, configError);
    return refusal(parsed, config, 500, "Configuration", CONFIGURATION_MESSAGE);
  }

  try {
    resolveOrigin(request, config);
  } catch (error) {
    // Logged for the operator; the answer names no host, so a forged one is never reflected.
    logger.error(error as Error);
    if (error instanceof UntrustedHost) return refusal(parsed, config, 400, "UntrustedHost", "This host is not trusted.");
    return refusal(parsed, config, 500, "Configuration", CONFIGURATION_MESSAGE);
  }

  const returnRedirectAsJson = request.headers.has("x-auth-return-redirect");
  try {
    const { options, cookies } = await initOptions(parsed, config, logger);
    // Integrations that protect POSTs themselves skip the check on purpose; warn only when a client asks
    // for a token that cannot exist.
    if (options.skipCSRFCheck && parsed.action === "csrf") warnOnce(logger, "csrf-disabled");
    const response = await handleAction(options, parsed);
    response.cookies = [...cookies, ...(response.cookies ?? [])];
    return toResponse(response, returnRedirectAsJson);
  } catch (error) {
    try {
      return errorResponse(error, parsed, config, logger, returnRedirectAsJson);
    } catch (secondary) {
      // Last resort: never let an exception escape to the framework.
      logger.error(secondary as Error);
      return jsonError(500, "Configuration", CONFIGURATION_MESSAGE);
    }
  }
}

/**
 * A request refused before any action runs: the error page for a page a browser navigates to, JSON for
 * the rest. Links are relative: the request's host is unknown or not to be believed here.
 */
async function refusal(parsed: RequestInternal, config: AuthConfig, status: number, type: string, message: string): Promise<Response> {
  if (parsed.method === "GET" && pageActions.has(parsed.action)) {
    const basePath = normaliseBasePath(config.basePath);
    const page = renderErrorPage({ error: "Configuration", signinUrl: `${basePath}/signin`, homeUrl: "/", theme: config.theme ?? {} });
    return new Response(page.html, { status, headers: await pageHeaders(page.html) });
  }
  return jsonError(status, type, message);
}

function checkConfig(config: AuthConfig): AuthError | undefined {
  try {
    return assertConfig(config, resolveProviders(config, ""), resolveSessionOptions(config).strategy);
  } catch (error) {
    return new AuthError("The configuration could not be read.", { cause: error as Error });
  }
}

/** Where an error sends the user: the sign-in page for sign-in errors, the error page otherwise. */
function errorResponse(error: unknown, request: RequestInternal, config: AuthConfig, logger: LoggerInstance, asJson: boolean): Response {
  const authError = error instanceof AuthError ? error : new AuthError("Unexpected error.", { cause: error as Error });
  logger.error(authError);
  if (request.action === "session" && request.method === "POST") {
    // Bad input to an update is the client's: 413 for too much data, 400 for everything else.
    const status = authError instanceof SessionDataTooLarge ? 413 : 400;
    return new Response("null", { status, headers: { "Content-Type": "application/json" } });
  }
  if (authError instanceof UnknownAction) return jsonError(400, "UnknownAction", authError.message);

  const type = isClientSafeError(authError) ? authError.type : "Configuration";
  const query = new URLSearchParams({ error: type });
  if (authError instanceof CredentialsSignin) query.set("code", authError.code);
  // The host was checked before any action ran, so this does not throw.
  const origin = resolveOrigin(request.request, config);
  const basePath = normaliseBasePath(config.basePath);
  const page =
    authError.kind === "signIn" && type !== "Configuration"
      ? (config.pages?.signIn ?? `${basePath}/signin`)
      : (config.pages?.error ?? `${basePath}/error`);
  const url = new URL(page, origin);
  for (const [key, value] of query) url.searchParams.set(key, value);
  return toResponse({ redirect: url.href }, asJson);
}
