/**
 * The routes: for each method and action, the handler and what it needs computed before it runs (see
 * `request-context.ts`). A method an action does not take is refused with 400.
 */
import type { InternalOptions, RequestInternal, ResponseInternal, RouteNeeds } from "../internal-types.js";
import { callbackAction } from "./callback.js";
import { csrfAction } from "./csrf.js";
import { errorPage, signInPage, verifyRequestPage } from "./pages.js";
import { providersAction } from "./providers.js";
import { sessionAction } from "./session.js";
import { signInAction } from "./signin.js";
import { signOutAction, signOutPage } from "./signout.js";
import { webAuthnRoutes } from "./webauthn-routes.js";

type Handler = (options: InternalOptions, request: RequestInternal) => ResponseInternal | Promise<ResponseInternal>;

/** A route: its handler, and what the request context computes for it. */
export interface Route {
  handler: Handler;
  needs: RouteNeeds;
}

/** A route whose code (and what it imports) loads with its first request: `load` imports it, `name` is its handler. */
function lazy(load: () => Promise<Record<string, unknown>>, name: string): Handler {
  return async (options, request) => ((await load())[name] as Handler)(options, request);
}

const sessions = lazy(() => import("./sessions.js"), "sessionsAction");
const accounts = lazy(() => import("./accounts.js"), "accountsAction");
const password = lazy(() => import("../password-accounts/routes.js"), "passwordAction");
const account = lazy(() => import("./account-page.js"), "accountPageAction");
const twoFactor = lazy(() => import("../two-factor/routes.js"), "twoFactorAction");
const passkeys = lazy(() => import("./passkeys.js"), "passkeysAction");

/** Pages and forms: a CSRF token (minted if new) for their forms, and where to go afterwards. */
const form: RouteNeeds = { csrf: "mint", callbackUrl: true };

const routes: Record<string, Route> = {
  "GET providers": { handler: providersAction, needs: {} },
  "GET csrf": { handler: csrfAction, needs: { csrf: "mint" } },
  // The hot path: no CSRF work, no `redirect` callback.
  "GET session": { handler: sessionAction, needs: {} },
  "POST session": { handler: sessionAction, needs: { csrf: "mint" } },
  "GET signin": {
    handler: (options, request) => (request.providerId ? methodNotAllowed(request) : signInPage(options, request)),
    needs: form,
  },
  "POST signin": { handler: signInAction, needs: form },
  // A callback must not replace the CSRF cookie its flow is bound to: it mints one only where there is
  // none (a mail scanner, another device), for the form of the email link's confirmation page.
  "GET callback": { handler: callbackAction, needs: { csrf: "mint", callbackUrl: true } },
  "POST callback": { handler: callbackAction, needs: { csrf: "read", callbackUrl: true } },
  "GET signout": { handler: signOutPage, needs: form },
  "POST signout": { handler: signOutAction, needs: form },
  // Session control: reading the list needs no token; ending a session is a POST that must prove it.
  // Its code (and the registry's) loads with the first request to it.
  "GET sessions": { handler: sessions, needs: {} },
  "POST sessions": { handler: sessions, needs: { csrf: "mint" } },
  // Linked accounts: the same pattern, their code loaded with the first request to them.
  "GET accounts": { handler: accounts, needs: {} },
  "POST accounts": { handler: accounts, needs: { csrf: "mint" } },
  // The signed-in user's passkeys: listed, renamed, removed (actions/passkeys.ts).
  "GET passkeys": { handler: passkeys, needs: {} },
  "POST passkeys": { handler: passkeys, needs: { csrf: "mint" } },
  // The Password() provider's forms and links (password-accounts/routes.ts).
  "GET password": { handler: password, needs: form },
  "POST password": { handler: password, needs: form },
  // The built-in account page, and its unlink form.
  "GET account": { handler: account, needs: form },
  "POST account": { handler: account, needs: form },
  // The second step of a sign-in (its page and its form, bound to this browser's CSRF cookie: minted
  // only where there is none), and the signed-in user's second-factor settings.
  "GET two-factor": { handler: twoFactor, needs: { csrf: "mint" } },
  "POST two-factor": { handler: twoFactor, needs: { csrf: "mint" } },
  "GET error": { handler: errorPage, needs: {} },
  // Its form takes the mailed code (in the browser that asked for the mail).
  "GET verify-request": { handler: verifyRequestPage, needs: { csrf: "mint" } },
  // The challenge cookie is bound to the browser's CSRF token (http/flow-binding.ts).
  // Passkey code (and @simplewebauthn/server behind it) comes with the Passkey() provider: see actions/webauthn-routes.
  "GET webauthn-options": {
    handler: async (options, request) => (await webAuthnRoutes(options)).webAuthnOptionsAction(options, request),
    needs: { csrf: "mint" },
  },
  "GET webauthn-script": { handler: async (options) => (await webAuthnRoutes(options)).webAuthnScriptAction(options), needs: {} },
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

const refused: Route = { handler: (_options, request) => methodNotAllowed(request), needs: {} };

/** The route of `request` (a refusal for a method the action does not take). */
export function routeOf(request: RequestInternal): Route {
  return routes[`${request.method} ${request.action}`] ?? refused;
}
