/**
 * The values of session control, `useSessions` and `useRevokeSession` (docs/sessions.md): core's
 * `listSessions` and `revokeSession`, run by `operation-actions.ts`. Failures are values, not exceptions,
 * because a page shows them: the listing answers the error's type, a revocation a form failure with it.
 */
import type { ListedSession } from "@authlib/core";
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
