/**
 * Sign-in and sign-out from server code (the `useSignIn` / `useSignOut` actions and the app's own).
 *
 * Each runs the instance's operation (`auth.api.signIn` / `signOut`: in process, no HTTP in between),
 * applies core's cookies and then redirects with 303 — or, for rejected credentials, rethrows core's
 * `CredentialsSignin` to the caller (spec §7.2 rule 2) instead of sending the user to an error page.
 *
 * CSRF: the operations carry no form token (the app's own code calls them); core refuses one the browser
 * sent from another site (`Origin` / `Sec-Fetch-Site`). They run inside Qwik City actions, which Qwik
 * City protects too: an action POST to a page route must come from the page's own origin (its
 * `checkOrigin` middleware, on by default). The built-in pages under `basePath` get no such protection
 * from Qwik, so `onRequest` keeps core's CSRF token check on for them.
 */
import type { RequestLike } from "@authlib/core";
import { AuthError, CredentialsSignin, EmailSignInError, InvalidProvider, RateLimited } from "@authlib/core/errors";
import type { Cookie } from "@authlib/core/integration";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { type AuthContext, requireAuthContext } from "./context.js";
import { loadCore } from "./core.js";
import { operationRequest } from "./operation.js";
import { appendCookies } from "./response.js";

/**
 * Options of a sign-in: where to go afterwards, and any other field the provider reads (`email` for the
 * email provider, the credentials' fields such as `email` and `password` for credentials).
 */
export interface SignInOptions {
  /** Where to send the user after signing in. Same-origin only (core's `redirect` callback decides). Default: the current page. */
  redirectTo?: string;
  /**
   * OAuth/OIDC only: link the provider's account to the signed-in user instead of signing in (core's
   * `link=true` form field). Refused with `OAuthAccountNotLinked` when nobody is signed in. With
   * `useSignIn`, send the field `options.link` = `"true"`.
   */
  link?: boolean;
  [field: string]: unknown;
}

/** Extra parameters of the provider's authorization request (OAuth/OIDC), e.g. `{ prompt: "login" }`. */
export type AuthorizationParams = string | URLSearchParams | Record<string, string>;

/** Options of a sign-out. */
export interface SignOutOptions {
  /** Where to send the user after signing out. Same-origin only. Default: the current page. */
  redirectTo?: string;
}

/**
 * Signs the user in from the app's own server code (an action, a request handler).
 *
 * - OAuth/OIDC and email providers: throws a 303 redirect to the provider, or to the verify-request page.
 * - Credentials: checks them; on success sets the session cookie and throws a 303 redirect to
 *   `options.redirectTo`. On failure it **throws `CredentialsSignin`** (with the `code` your `authorize`
 *   chose) instead of redirecting, so the caller decides what the user sees.
 * - Any provider: a refusal by a rate limit (too many failed sign-ins, too many mails) **throws
 *   `RateLimited`** (its `retryAfter` says when to try again, in seconds, when known).
 * - No `providerId`: throws a 303 redirect to the sign-in page.
 *
 * Throws `InvalidProvider` for an unknown provider id. Let Qwik's redirect (an `AbortMessage`) propagate.
 * It returns normally only for a script-driven `<Form>` submission, whose redirect travels in Qwik's
 * response data (see `redirect` below); end the action then.
 *
 * @example
 * ```ts
 * export const useLogin = routeAction$(async (form, ev) => {
 *   try {
 *     await signIn(ev, "credentials", { email: form.email, password: form.password, redirectTo: "/" });
 *   } catch (error) {
 *     if (error instanceof CredentialsSignin) return ev.fail(401, { message: "Wrong email or password", code: error.code });
 *     throw error;
 *   }
 * });
 * ```
 */
export async function signIn(
  ev: RequestEventCommon,
  providerId?: string,
  options: SignInOptions = {},
  authorizationParams?: AuthorizationParams,
): Promise<void> {
  return startSignIn(ev, await requireAuthContext(ev), providerId, options, authorizationParams);
}

/** Signs the user out from the app's own server code: clears the session, then redirects (303) like {@link signIn}. */
export async function signOut(ev: RequestEventCommon, options: SignOutOptions = {}): Promise<void> {
  return startSignOut(ev, await requireAuthContext(ev), options.redirectTo);
}

/** {@link signIn} with the context at hand. */
export async function startSignIn(
  ev: RequestEventCommon,
  context: AuthContext,
  providerId: string | undefined,
  options: SignInOptions,
  authorizationParams?: AuthorizationParams,
): Promise<void> {
  const { redirectTo, link, ...fields } = options;
  const callbackUrl = redirectTo ?? currentPage(ev);
  if (!providerId) {
    return redirect(ev, `${context.basePath}/signin?${new URLSearchParams({ callbackUrl })}`);
  }
  const params = authorizationParams === undefined ? undefined : Object.fromEntries(new URLSearchParams(authorizationParams));
  const input = {
    ...formFields(fields),
    providerId,
    redirectTo: callbackUrl,
    link: link === true || String(link) === "true",
    authorizationParams: params,
  };
  redirect(ev, await runOperation(ev, context, (request) => context.auth.api.signIn(request, input)));
}

/** {@link signOut} with the context at hand. */
export async function startSignOut(ev: RequestEventCommon, context: AuthContext, redirectTo: string | undefined): Promise<void> {
  redirect(
    ev,
    await runOperation(ev, context, (request) => context.auth.api.signOut(request, { redirectTo: redirectTo ?? currentPage(ev) })),
  );
}

/**
 * Runs an operation of the instance for this request, applies the cookies it sets, and returns where it
 * redirects. Rejected credentials are rethrown as the `CredentialsSignin` core threw, a refusal by a rate
 * limit as its `RateLimited`, an unknown provider as `InvalidProvider`, an address core sends no mail to as
 * its `EmailSignInError` (`code` `"invalid-address"`); any other failure goes where the
 * handler would send it (the error page, or the sign-in page with `?error=`), by core's own error policy.
 */
async function runOperation(
  ev: RequestEventCommon,
  context: AuthContext,
  operation: (request: RequestLike) => Promise<{ redirect: string; cookies: Cookie[] }>,
): Promise<string> {
  const core = await loadCore();
  try {
    const result = await operation(operationRequest(ev));
    appendCookies(ev, core, result.cookies);
    // The session just changed: later reads in this request (the loaders Qwik runs after a script-driven
    // action) must not read, or re-issue, the session cookie the request came with.
    context.session = Promise.resolve(null);
    return result.redirect;
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    appendCookies(ev, core, core.failureCookies(error));
    if (error instanceof CredentialsSignin || error instanceof RateLimited || error instanceof InvalidProvider || isInvalidAddress(error)) {
      throw error;
    }
    return core.errorRedirect(context.auth, error, ev.request);
  }
}

/** The fields as a form would send them: strings, objects as JSON, nothing for `undefined`/`null`. */
function formFields(fields: Record<string, unknown>): Record<string, string> {
  const body: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    body[key] = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  }
  return body;
}
/** The page the action was posted from, without Qwik's `qaction` marker. */
export function currentPage(ev: RequestEventCommon): string {
  const url = new URL(ev.url);
  url.searchParams.delete("qaction");
  return url.href;
}

/**
 * Sends the user to `url` with a 303: by throwing Qwik's redirect for a normal form POST. A script-driven
 * submission (Qwik's `<Form>` with JS) must end in a full navigation, as a form POST does: the target may
 * be the provider or a page under `basePath`, which are not Qwik routes. Qwik 1's client posts to
 * `…/q-data.json` and navigates to a `Location` in its response data; a thrown redirect would make Qwik
 * rewrite it into a `q-data.json` fetch. Qwik 2's client posts `?qaction=…` with `Accept: application/json`,
 * turns a thrown redirect into a client-side navigation (which, in 2.0.0-beta.45, updates the address
 * but does not render the page), and navigates as a document after a real redirect: so this sends one
 * for a same-origin target (another origin is a document navigation for its client anyway).
 */
export function redirect(ev: RequestEventCommon, url: string): void {
  const target = new URL(url, ev.url);
  // A same-origin URL becomes a path, unless that path would read as protocol-relative (`//host`,
  // `/\host`): then the full URL keeps the browser on this origin.
  const asPath = `${target.pathname}${target.search}${target.hash}`;
  const location = target.origin === ev.url.origin && !/^[/\\]{2}/.test(asPath) ? asPath : target.href;
  if (new URL(ev.request.url).pathname.endsWith("/q-data.json")) {
    ev.headers.set("Location", location);
    return;
  }
  if (isQwik2ScriptAction(ev) && target.origin === ev.url.origin) {
    ev.headers.set("Location", location);
    throw ev.send(303, "");
  }
  throw ev.redirect(303, location);
}

/** A Qwik 2 `<Form>` submission by its script (Qwik 1's go to `q-data.json`, its plain form posts accept HTML). */
function isQwik2ScriptAction(ev: RequestEventCommon): boolean {
  return ev.method === "POST" && ev.url.searchParams.has("qaction") && !!ev.request.headers.get("accept")?.includes("application/json");
}

/** True for an address core sends no sign-in mail to: the user's typing, shown on their form. */
export function isInvalidAddress(error: unknown): error is EmailSignInError {
  return error instanceof EmailSignInError && error.code === "invalid-address";
}
