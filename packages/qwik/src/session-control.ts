/**
 * Session control for `useSessions` and `useRevokeSession`: the signed-in user's sessions (their devices)
 * through the instance's `auth.api` in process (docs/sessions.md), and the types of ending them (core's
 * `revokeSession`, an entry of `operation-actions.ts`).
 *
 * Failures are values here, not exceptions, because a page shows them (`control.ts`): the listing answers
 * the error's type, a revocation a form failure with it.
 */
import type { ListedSession } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { listingError } from "./control.js";
import { operationRequest } from "./operation.js";
import { readSession } from "./session.js";
import type { FormFailure } from "./validation.js";

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
