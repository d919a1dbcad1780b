/**
 * The operations of the spec's own routes (Auth.js's surface): the session, CSRF token, providers, the
 * sign-in and sign-out pages and forms, the callbacks, the error and verify-request pages, and the
 * passkey options and script. Every other operation comes with its feature (`kernel/features.ts`).
 *
 * @module actions/operations
 */
import { RateLimited, RecentSignInRequired, SessionDataTooLarge } from "../errors.js";
import { failureCookies, jsonRefusal } from "../http/error-response.js";
import { signInAgain } from "../sign-in/owner-present.js";
import type { ResponseInternal, RouteNeeds } from "../types/internal.js";
import type { InputOf, OperationDeclaration, OperationHandler, OperationNeeds, Presentation } from "../types/operation.js";
import { webAuthnRoutes } from "../webauthn/routes-loader.js";
import { callbackAction, callbackPostAction } from "./callback.js";
import { csrfAction } from "./csrf.js";
import { errorPage, signInPage, verifyRequestPage } from "./pages.js";
import { providersAction } from "./providers.js";
import { sessionAction, updateInput } from "./session.js";
import {
  type CallbackFields,
  type CallbackPostFields,
  callbackInput,
  callbackPostInput,
  type SignInFields,
  signInHttpFields,
  signInInput,
  type WebAuthnOptionsFields,
  webAuthnOptionsInput,
} from "./sign-in-input.js";
import { signInAction } from "./signin.js";
import { signOutAction, signOutPage } from "./signout.js";

/** Pages and forms: a CSRF token (minted if new) for their forms, and where to go afterwards. */
const form: RouteNeeds = { csrf: "mint", callbackUrl: true };

/** A sign-in that links a provider's account to the signed-in user changes how they sign in. */
const linking: OperationNeeds<SignInFields> = {
  ...form,
  ownerPresent: (_options, _request, input) => (input.link ? "linkAccount" : undefined),
};

/** A link's `RecentSignInRequired`: sign in again, then back where it was going; its other refusals are a sign-in's. */
const signInForm: Presentation = (options, _request, error) =>
  error instanceof RecentSignInRequired ? signInAgain(options, options.callbackUrl, error) : undefined;

/**
 * A session update is a script's `fetch`: 429 for a limit (with `Retry-After` when it knows when it ends),
 * 413 for too much data, 400 for any other refusal; body `null`.
 */
const sessionUpdate: Presentation = (_options, _request, error) => {
  const status = error instanceof RateLimited ? 429 : error instanceof SessionDataTooLarge ? 413 : 400;
  const answer: ResponseInternal = { status, body: null, cookies: failureCookies(error), failure: error };
  if (error instanceof RateLimited) answer.headers = error.retryAfter ? { "Retry-After": `${error.retryAfter}` } : {};
  return answer;
};

/** The passkey script's `fetch` of its options: a limit or a stale session as JSON; the rest, the general policy. */
const passkeyOptions: Presentation = (_options, _request, error) =>
  error instanceof RateLimited || error instanceof RecentSignInRequired ? jsonRefusal(error) : undefined;

const webAuthnOptions: OperationHandler<WebAuthnOptionsFields> = async (options, request, input) =>
  (await webAuthnRoutes(options)).webAuthnOptionsAction(options, request, input);

/** The sign-in form and `signin/:provider`: one schema, its fields from the form and the query's authorization parameters. */
const signIn = (name: string, path: string): OperationDeclaration<SignInFields> => ({
  name,
  method: "POST",
  path,
  needs: linking,
  presentation: signInForm,
  input: signInInput,
  httpFields: signInHttpFields,
  handler: signInAction,
});

/** The spec's operations. */
export const coreOperations: readonly OperationDeclaration[] = [
  { name: "providers", method: "GET", path: "providers", handler: providersAction },
  { name: "csrf", method: "GET", path: "csrf", needs: { csrf: "mint" }, handler: csrfAction },
  // The hot path: no CSRF work, no `redirect` callback.
  { name: "getSession", method: "GET", path: "session", handler: sessionAction },
  {
    name: "updateSession",
    method: "POST",
    path: "session",
    needs: { csrf: "mint" },
    presentation: sessionUpdate,
    input: updateInput,
    handler: sessionAction,
  } satisfies OperationDeclaration<InputOf<typeof updateInput>>,
  { name: "signInPage", method: "GET", path: "signin", needs: form, presentation: "page", handler: signInPage },
  signIn("signInForm", "signin"),
  signIn("signIn", "signin/:provider"),
  // A callback must not replace the CSRF cookie its flow is bound to: it mints one only where there is
  // none (a mail scanner, another device), for the form of the email link's confirmation page.
  {
    name: "callback",
    method: "GET",
    path: "callback/:provider",
    needs: { csrf: "mint", callbackUrl: true },
    input: callbackInput,
    handler: callbackAction,
  } satisfies OperationDeclaration<CallbackFields>,
  {
    name: "callbackPost",
    method: "POST",
    path: "callback/:provider",
    needs: { csrf: "read", callbackUrl: true },
    // A mailed code typed in a browser comes back to its page; the rest take the general policy.
    presentation: async (options, request, error) => (await import("./email.js")).emailCodeRefusal(options, request, error),
    input: callbackPostInput,
    handler: callbackPostAction,
  } satisfies OperationDeclaration<CallbackPostFields>,
  { name: "signOutPage", method: "GET", path: "signout", needs: form, presentation: "page", handler: signOutPage },
  { name: "signOut", method: "POST", path: "signout", needs: form, handler: signOutAction },
  { name: "errorPage", method: "GET", path: "error", presentation: "page", handler: errorPage },
  // Its form takes the mailed code (in the browser that asked for the mail).
  {
    name: "verifyRequestPage",
    method: "GET",
    path: "verify-request",
    needs: { csrf: "mint" },
    presentation: "page",
    handler: verifyRequestPage,
  },
  // The challenge cookie is bound to the browser's CSRF token (http/flow-binding.ts). Passkey code (and
  // @simplewebauthn/server behind it) comes with the Passkey() provider: see actions/webauthn-routes.
  // A registration by a signed-in user adds a way in: the owner must be present, checked where its challenge is made.
  {
    name: "webAuthnOptions",
    method: "GET",
    path: "webauthn-options/:provider",
    needs: {
      csrf: "mint",
      ownerPresent: (options, request, input) =>
        input.action === "register" && isPasskeyProvider(options, request.providerId) ? "addPasskey" : undefined,
    },
    presentation: passkeyOptions,
    input: webAuthnOptionsInput,
    handler: webAuthnOptions,
  } satisfies OperationDeclaration<WebAuthnOptionsFields>,
  {
    name: "webAuthnScript",
    method: "GET",
    path: "webauthn-script",
    handler: async (options) => (await webAuthnRoutes(options)).webAuthnScriptAction(options),
  },
];

/** True when `id` names a passkey provider of the configuration. */
function isPasskeyProvider(options: Parameters<OperationHandler>[0], id: string | undefined): boolean {
  return options.providers.some((provider) => provider.id === id && provider.type === "webauthn");
}
