/**
 * The steps every sign-in shares, whatever the provider: asking the `signIn` callback, starting the
 * session, firing the event and redirecting.
 */
import { AccessDenied, AuthError } from "../errors.js";
import type { Cookie } from "../http/cookies.js";
import { resolveRedirect } from "../http/redirect.js";
import type { CallbacksOptions } from "../types/config.js";
import type { InternalOptions, RequestInternal, ResponseInternal, SignInResult } from "../types/internal.js";

/**
 * Asks the `signIn` callback. `false` or a thrown error ends in `AccessDenied` (carrying the original
 * message); a string is a redirect, returned validated; `true` returns `undefined`.
 */
export async function askSignInCallback(
  options: InternalOptions,
  params: Parameters<CallbacksOptions["signIn"]>[0],
): Promise<string | undefined> {
  let result: boolean | string;
  try {
    result = await options.callbacks.signIn(params);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AccessDenied((error as Error)?.message ?? "The signIn callback threw.", { cause: error as Error });
  }
  if (result === false) throw new AccessDenied("The signIn callback refused the sign-in.");
  if (typeof result === "string") return resolveRedirect(result, options.origin, options.callbacks.redirect, options.logger);
  return undefined;
}

/** Appends `callbackUrl` to a page URL, keeping any query it already has. */
export function withCallbackUrl(page: string, callbackUrl: string): string {
  return `${page}${page.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`;
}

/**
 * Starts the session (or holds it for its second step), fires `signIn`, and redirects to the callback
 * URL (or `pages.newUser`).
 */
export async function completeSignIn(
  options: InternalOptions,
  request: RequestInternal,
  result: SignInResult,
  cookies: Cookie[] = [],
): Promise<ResponseInternal> {
  // Deciding between a session and a second step loads with the first sign-in.
  const started = await (await import("./start-session.js")).startSession(options, request, result);
  if (started.secondStep) return { redirect: started.secondStep, cookies: [...cookies, ...started.cookies] };
  const sessionCookies = started.cookies;
  await options.events.signIn({ user: result.user, account: result.account, profile: result.profile, isNewUser: result.isNewUser });
  const redirect =
    result.isNewUser && options.pages.newUser
      ? new URL(withCallbackUrl(options.pages.newUser, options.callbackUrl), options.origin).href
      : options.callbackUrl;
  return { redirect, cookies: [...cookies, ...sessionCookies] };
}
