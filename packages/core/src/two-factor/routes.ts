/**
 * `<basePath>/two-factor`: `GET` the second step's page, `POST` the second step itself
 * (`two-factor/second-step.ts`); `/enroll`, `/confirm`, `/disable`, `/status` and `/assurance` for the
 * signed-in user's settings (`two-factor/settings.ts`). Loaded with the first request to them.
 *
 * @module two-factor/routes
 */
import { MethodNotAllowed, UnknownAction } from "../errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { secondStepPage } from "./page.js";
import { secondStepAction } from "./second-step.js";
import { settingsRoutes } from "./settings.js";

/** Every `/two-factor` route. */
export async function twoFactorAction(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  if (request.providerId === undefined)
    return request.method === "GET" ? secondStepPage(options, request) : secondStepAction(options, request);
  const route = settingsRoutes[`${request.method} ${request.providerId}`];
  if (!route) throw new MethodNotAllowed(`${request.method} is not supported on /two-factor/${request.providerId}.`);
  // Turning a factor on without the second step in place would protect nothing.
  if (request.providerId !== "assurance" && !options.config.twoFactor)
    throw new UnknownAction("Second factors are off: set `twoFactor` in the configuration to use them.");
  return route(options, request);
}
