/**
 * `Auth(request, config)`: the whole HTTP surface of authlib. Every framework integration can call it;
 * integrations that run in the same process may call the in-process API (`integration.ts`) instead.
 */
import { UntrustedHost } from "./errors.js";
import { asAuthError, errorResult } from "./http/error-response.js";
import { parseRequest } from "./http/request.js";
import { type AuthAnswer, answerToResponse, jsonErrorAnswer, toAnswer } from "./http/response.js";
import type { RequestInternal } from "./internal-types.js";
import { loadPages } from "./pages/lazy.js";
import { pageHeaders } from "./pages/security-headers.js";
import { originOf, runRoute, usable } from "./pipeline.js";
import { type ResolvedAuth, resolveAuth } from "./resolve.js";
import type { AuthConfig } from "./types.js";

/** What a client is told about any configuration problem: the details go to the server log only. */
const CONFIGURATION_MESSAGE = "There is a problem with the server configuration. Check the server logs for more information.";

/** Pages a browser navigates to: a configuration error there is shown as the error page. */
const pageActions = new Set(["signin", "signout", "error", "verify-request"]);

/** What an integration knows about a request besides the `Request` itself. */
export interface AuthRequestOptions {
  /**
   * The address of the connection the request came on (Node's `socket.remoteAddress`, …). Integrations
   * pass it so that per-client limits can count by it; no header is ever read for it.
   */
  clientAddress?: string;
}

/**
 * Answers a request under `config.basePath` (default `/auth`). Never throws: bad input gets a 4xx or the
 * error page, a configuration error a generic 500 whose details go to the server log only.
 *
 * The configuration is resolved once per configuration object (see `docs/architecture.md`): pass the
 * same object on every request.
 */
export async function Auth(request: Request, config: AuthConfig, _options?: AuthRequestOptions): Promise<Response> {
  return answerToResponse(await answerAuthRequest(request, config));
}

/**
 * What `Auth()` answers, as data, for integrations that copy it onto their framework's response
 * themselves (cookies as objects, for the framework's cookie jar). Never throws.
 */
export async function answerAuthRequest(request: Request, config: AuthConfig): Promise<AuthAnswer> {
  const resolved = resolveAuth(config);
  const { logger } = resolved;
  let parsed: RequestInternal;
  try {
    parsed = await parseRequest(request, resolved.basePath);
  } catch (error) {
    const message = (error as Error).message;
    logger.debug(`Refused request: ${message}`);
    return jsonErrorAnswer(
      message.startsWith("Method") ? 405 : 404,
      "UnknownAction",
      message.startsWith("Method") ? message : "Not found.",
    );
  }
  // Logged once, when the configuration was resolved.
  if (resolved.error || !resolved.options) return refusal(parsed, resolved, 500, "Configuration", CONFIGURATION_MESSAGE);

  let origin: string;
  try {
    origin = originOf(resolved, parsed);
  } catch (error) {
    // Logged for the operator; the answer names no host, so a forged one is never reflected.
    logger.error(error as Error);
    if (error instanceof UntrustedHost) return refusal(parsed, resolved, 400, "UntrustedHost", "This host is not trusted.");
    return refusal(parsed, resolved, 500, "Configuration", CONFIGURATION_MESSAGE);
  }

  const returnRedirectAsJson = request.headers.has("x-auth-return-redirect");
  try {
    return toAnswer(await runRoute(usable(resolved), parsed, origin), returnRedirectAsJson);
  } catch (error) {
    try {
      const where = { origin, basePath: resolved.basePath, pages: config.pages ?? {} };
      return toAnswer(errorResult(asAuthError(error), parsed, where), returnRedirectAsJson);
    } catch (secondary) {
      // Last resort: never let an exception escape to the framework.
      logger.error(secondary as Error);
      return jsonErrorAnswer(500, "Configuration", CONFIGURATION_MESSAGE);
    }
  }
}

/**
 * A request refused before any action runs: the error page for a page a browser navigates to, JSON for
 * the rest. Links are relative: the request's host is unknown or not to be believed here.
 */
async function refusal(
  parsed: RequestInternal,
  resolved: ResolvedAuth,
  status: number,
  type: string,
  message: string,
): Promise<AuthAnswer> {
  if (parsed.method === "GET" && pageActions.has(parsed.action)) {
    const { renderErrorPage } = await loadPages();
    const page = renderErrorPage({
      error: "Configuration",
      signinUrl: `${resolved.basePath}/signin`,
      homeUrl: "/",
      theme: resolved.config.theme ?? {},
    });
    return { status, headers: await pageHeaders(page.html), cookies: [], body: page.html };
  }
  return jsonErrorAnswer(status, type, message);
}
