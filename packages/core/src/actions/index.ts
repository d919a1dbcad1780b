/** Routes a parsed request to its action. A method an action does not take is refused with 400. */
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { callbackAction } from "./callback.js";
import { csrfAction } from "./csrf.js";
import { errorPage, signInPage, verifyRequestPage } from "./pages.js";
import { providersAction } from "./providers.js";
import { sessionAction } from "./session.js";
import { signInAction } from "./signin.js";
import { signOutAction, signOutPage } from "./signout.js";
import { webAuthnOptionsAction, webAuthnScriptAction } from "./webauthn.js";

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
  "GET webauthn-options": webAuthnOptionsAction,
  "GET webauthn-script": webAuthnScriptAction,
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
