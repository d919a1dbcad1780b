/**
 * `<basePath>/two-factor`: `GET` the second step's page, `POST` the second step itself
 * (`two-factor/second-step.ts`); `/enroll`, `/confirm`, `/disable`, `/status` and `/assurance` for the
 * signed-in user's settings (`two-factor/settings.ts`). Loaded with the first request to them.
 *
 * @module two-factor/routes
 */
import { type ErrorType, MethodNotAllowed, UnknownAction } from "../errors.js";
import { asAuthError } from "../http/error-response.js";
import { noStoreHeaders } from "../http/response.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { secondStepPage } from "./page.js";
import { secondStepAction } from "./second-step.js";
import { settingsRoutes } from "./settings.js";

/**
 * The statuses the settings routes answer fetch clients with, by error type; any other error is a 500.
 * Made at the refusal, not kept in a module constant: this module loads with the first request to it
 * (docs/testing.md, Scores).
 */
const statuses = (): Partial<Record<ErrorType, number>> => ({
  SessionRequired: 401,
  IncorrectCode: 400,
  MissingCSRF: 403,
  RecentSignInRequired: 403,
  TwoFactorAlreadyEnabled: 409,
  TwoFactorNotEnabled: 409,
  MethodNotAllowed: 405,
  RateLimited: 429,
});

/** A settings route. */
async function settings(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const route = settingsRoutes[`${request.method} ${request.providerId}`];
  if (!route) throw new MethodNotAllowed(`${request.method} is not supported on /two-factor/${request.providerId}.`);
  // Turning a factor on without the second step in place would protect nothing.
  if (request.providerId !== "assurance" && !options.config.twoFactor)
    throw new UnknownAction("Second factors are off: set `twoFactor` in the configuration to use them.");
  return route(options, request);
}

/**
 * Every `/two-factor` route. The settings answer fetch clients JSON: `{ error: <type> }` with a status
 * (`Configuration` and 500 for an error that is the operator's); `auth.api` gets the typed error.
 */
export async function twoFactorAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  if (request.providerId === undefined)
    return request.method === "GET" ? secondStepPage(options, request) : secondStepAction(options, request);
  try {
    return await settings(options, request);
  } catch (error) {
    if (request.inProcess) throw error;
    const authError = asAuthError(error);
    const status = statuses()[authError.type];
    // `failure` has the pipeline log, trace and audit it.
    const body = { error: status ? authError.type : "Configuration" };
    return { status: status ?? 500, body, headers: { ...noStoreHeaders }, failure: authError };
  }
}
