/**
 * Where a sign-in's first factor leads: the session (with the assurance of that factor, or the one a
 * completed second step gives), or, for a user with a second factor, the second step.
 *
 * @module actions/start-session
 */
import { hasChunkedCookie } from "../http/cookie-chunks.js";
import { type Cookie, clearChunkedCookie } from "../http/cookies.js";
import { firstFactorMethod, singleFactor } from "../session/assurance.js";
import type { InternalOptions, RequestInternal, SignInResult } from "../types/internal.js";

/**
 * The session's cookies for a first factor's `result`, or, for a user with a second factor, a pending
 * sign-in's cookies and the second step's URL (`secondStep`). A `result` that carries its `assurance` is
 * complete and its session starts: a passkey sign-in (`actions/webauthn.ts`) and a finished second step
 * carry one. (A passkey registration carries none, and is a new user's, who has no second factor yet.)
 */
export async function startSession(
  options: InternalOptions,
  request: RequestInternal,
  result: SignInResult,
): Promise<{ cookies: Cookie[]; secondStep?: string }> {
  // A feature may refuse this user a sign-in (an operator's ban: any; an SSO-only address: all but SSO's).
  const userId = result.user.id;
  const method = firstFactorMethod(result.account);
  const refusal = userId ? await options.hooks?.signInRefusal?.(options, userId, result.assurance?.amr[0] ?? method) : undefined;
  if (refusal) throw refusal;
  // A feature may hold the sign-in here (the second factor: its step comes first).
  const held = result.assurance ? undefined : await options.hooks?.afterFirstFactor?.(options, request, result, method);
  if (held) return { cookies: held.cookies, secondStep: held.redirect };
  const complete = result.assurance ? result : { ...result, assurance: singleFactor(method) };
  const ended = await endImpersonation(options, request);
  return { cookies: [...ended, ...(await options.sessionStrategy.start(options, request, complete))] };
}

/**
 * A sign-in in a browser where an admin acts as a user (it holds the admin's session kept aside,
 * `impersonateUser`) ends the impersonation first: its session and the kept cookie go, so no impersonated
 * session outlives the sign-in that replaced it. Nothing (one property read) in any other browser.
 */
async function endImpersonation(options: InternalOptions, request: RequestInternal): Promise<Cookie[]> {
  const kept = options.cookies.impersonatorSession;
  if (!kept || !hasChunkedCookie(request.cookies, kept.name)) return [];
  return [...(await options.sessionStrategy.end(options, request)), ...clearChunkedCookie(kept, request.cookies)];
}
