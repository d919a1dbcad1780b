/**
 * Reading the session lazily: nothing happens until a loader, action or handler asks, and then it
 * happens once per request. Cookies core refreshes on the way (a re-issued session token) are applied
 * to the response. A response that read the session depends on who asked: it is marked private and
 * not to be stored (see {@link keepOutOfCaches}).
 */
import type { Session } from "@authlib/core";
import type { Cookie } from "@authlib/core/integration";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { type AuthContext, requireAuthContext } from "./context.js";
import { loadCore } from "./core.js";
import { appendCookies } from "./response.js";

/**
 * A page rendered from the session is one person's: a shared cache must never hand it to someone else, and
 * the back button after sign-out must not show it from the browser's cache. So `Cache-Control: private,
 * no-store`, unless the app chose its own cache header (it then owns the decision; a header it sets later
 * replaces this one too).
 */
export function keepOutOfCaches(ev: RequestEventCommon): void {
  if (ev.headers.has("Cache-Control")) return;
  ev.headers.set("Cache-Control", "private, no-store");
}

/**
 * After an operation of this request set the session's cookies (the active organization): later reads in
 * this request (the loaders Qwik runs after the action) read the session those cookies carry, not the
 * request's own, which a re-issue would otherwise set again over the new one.
 */
export function readSessionAfter(ev: RequestEventCommon, context: AuthContext, cookies: readonly Cookie[]): void {
  const values = new Map(Object.entries(ev.cookie.getAll()).map(([name, cookie]) => [name, cookie.value]));
  for (const cookie of cookies) {
    if (cookie.options.maxAge === 0) values.delete(cookie.name);
    else values.set(cookie.name, cookie.value);
  }
  const headers = new Headers(ev.request.headers);
  headers.set("cookie", [...values].map(([name, value]) => `${name}=${value}`).join("; "));
  context.session = undefined;
  context.sessionRequest = { url: ev.request.url, headers };
}

/** The session of this request, read at most once. */
export function readSession(ev: RequestEventCommon, context: AuthContext): Promise<Session | null> {
  keepOutOfCaches(ev);
  context.session ??= loadCore().then(async (core) => {
    // The instance reads through the session strategy directly (no request to /session). Fails closed:
    // a failure (logged by core) is "signed out".
    const read = await context.auth.api.getSession(context.sessionRequest ?? ev.request).catch(() => ({ session: null, cookies: [] }));
    const { cookies, session } = read;
    // Asked for after the response has started (rare: loaders run before rendering), the refreshed
    // cookies are lost; the session itself stays valid and is refreshed on a later request.
    appendCookies(ev, core, cookies);
    return session;
  });
  return context.session;
}

/**
 * The current session, or `null` when signed out, for server code: a route's `onRequest`, a
 * `routeLoader$`, an action. Shares one read per request with `useSession`.
 *
 * @example
 * ```ts
 * // src/routes/dashboard/layout.tsx: only signed-in users get past this
 * export const onRequest: RequestHandler = async (ev) => {
 *   if (!(await getSession(ev))) throw ev.redirect(302, `/auth/signin?callbackUrl=${encodeURIComponent(ev.url.href)}`);
 * };
 * ```
 */
export async function getSession(ev: RequestEventCommon): Promise<Session | null> {
  return readSession(ev, await requireAuthContext(ev));
}
