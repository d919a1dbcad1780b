/**
 * Session control for `useSessions` and `useRevokeSession`: the signed-in user's sessions (their devices)
 * and ending them, through the instance's `auth.api` in process (docs/sessions.md).
 *
 * Failures are values here, not exceptions, because a page shows them (`control.ts`): the listing answers
 * the error's type, a revocation a form failure with it.
 *
 * CSRF: as for sign-out (see `sign-in.ts`), core refuses a revocation the browser sent from another site,
 * and Qwik City's `checkOrigin` refuses a cross-origin action POST before it runs.
 */
import type { ListedSession } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { listingError, operationFailure } from "./control.js";
import { loadCore } from "./core.js";
import { REVOKE_FAILED_MESSAGE } from "./messages.js";
import { operationRequest } from "./operation.js";
import { appendCookies } from "./response.js";
import { readSession } from "./session.js";
import type { FormFailure, RevokeSessionInput } from "./validation.js";

/** Why `useSessions` has no list: nobody is signed in, the configuration cannot list sessions, or listing failed. */
export type SessionsError = "SessionRequired" | "SessionRegistryMissing" | "Configuration";

/** The value of `useSessions`: the sessions, or why there are none to show. */
export type SessionsResult = { sessions: ListedSession[]; error?: undefined } | { sessions: null; error: SessionsError };

/** The types of a failed revocation: core's, for the session routes, or `"Configuration"` for the operator's. */
export type RevokeSessionError =
  | "SessionNotFound"
  | "InvalidSessionId"
  | "SessionRequired"
  | "MissingCSRF"
  | "SessionRegistryMissing"
  | "Configuration";

/** The failure of `useRevokeSession`: a message to show, and the error's type in `code`. */
export type RevokeSessionFailure = FormFailure<"sessionId" | "all", RevokeSessionError>;

/**
 * The signed-in user's sessions, the current one marked. The session is read first (once per request,
 * shared with `useSession`): a signed-out visitor costs no listing, and after a revocation in this
 * request the listing is of what is left.
 */
export async function listSessions(ev: RequestEventCommon, context: AuthContext): Promise<SessionsResult> {
  if (!(await readSession(ev, context))) return { sessions: null, error: "SessionRequired" };
  try {
    return { sessions: await context.auth.api.listSessions(operationRequest(ev)) };
  } catch (error) {
    return { sessions: null, error: listingError(error, ["SessionRequired", "SessionRegistryMissing"]) };
  }
}

/**
 * Ends the session `sessionId` of the signed-in user, or all but the current one, and sets the cookies
 * core answers (ending the current session clears its cookie). Answers how many ended, or the failure
 * with its HTTP status.
 */
export async function revokeSessions(
  ev: RequestEventCommon,
  context: AuthContext,
  input: RevokeSessionInput,
): Promise<{ revoked: number } | { status: number; failure: RevokeSessionFailure }> {
  const core = await loadCore();
  const request = operationRequest(ev);
  const { api } = context.auth;
  try {
    const result =
      input.all === "others" ? await api.revokeOtherSessions(request) : await api.revokeSession(request, { sessionId: input.sessionId });
    appendCookies(ev, core, result.cookies);
    // The current session may have ended: later reads in this request (the loaders Qwik runs after the
    // action) read it again rather than answer the one read before.
    context.session = undefined;
    return { revoked: result.revoked };
  } catch (error) {
    // The status core's `POST <basePath>/sessions/revoke` answers for it.
    return operationFailure<"sessionId" | "all", RevokeSessionError>(ev, context, error, REVOKE_FAILED_MESSAGE);
  }
}
