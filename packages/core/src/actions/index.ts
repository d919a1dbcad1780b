/** Routes a parsed request to its action. A method an action does not take is refused with 400. */
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { webAuthnRoutes } from "../webauthn/routes-loader.js";
import { callbackAction } from "./callback.js";
import { csrfAction } from "./csrf.js";
import { errorPage, signInPage, verifyRequestPage } from "./pages.js";
import { providersAction } from "./providers.js";
import { sessionAction } from "./session.js";
import { signInAction } from "./signin.js";
import { signOutAction, signOutPage } from "./signout.js";

type Handler = (options: InternalOptions, request: RequestInternal) => ResponseInternal | Promise<ResponseInternal>;

const routes: Record<string, Handler> = {
  "GET providers": providersAction,
  "GET csrf": csrfAction,
  "GET session": sessionAction,
  "POST session": sessionAction,
  "GET signin": (options, request) => (request.providerId ? methodNotAllowed(request) : signInPage(options, request)),
  "POST signin": signInAction,
  "GET callback": callbackAction,
  "POST callback": callbackAction,
  "GET signout": signOutPage,
  "POST signout": signOutAction,
  "GET error": errorPage,
  "GET verify-request": verifyRequestPage,
  // Passkey code (and @simplewebauthn/server behind it) comes with the Passkey() provider: see webauthn/routes-loader.
  "GET webauthn-options": async (options, request) => (await webAuthnRoutes(options)).webAuthnOptionsAction(options, request),
  "GET webauthn-script": async (options) => (await webAuthnRoutes(options)).webAuthnScriptAction(options),
};

function methodNotAllowed(request: RequestInternal): ResponseInternal {
  return {
    status: 400,
    body: {
      error: "UnknownAction",
      message: `${request.method} is not supported on /${request.action}${request.providerId ? "/:provider" : ""}.`,
    },
  };
}

/** Runs the action of `request`. */
export function handleAction(options: InternalOptions, request: RequestInternal): ResponseInternal | Promise<ResponseInternal> {
  const handler = routes[`${request.method} ${request.action}`];
  return handler ? handler(options, request) : methodNotAllowed(request);
}
