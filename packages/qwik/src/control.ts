/**
 * What session control (`session-control.ts`), linked accounts (`accounts.ts`) and password accounts
 * (`password.ts`) share: each answers a failure as a value a page shows, never as an exception, and names
 * to clients only the error types it gives a status (core's own routes' for the first two:
 * `sessionErrorStatus`). Any other type (the adapter failed, …) is reported as `"Configuration"`, as
 * core's routes do; core has logged it.
 */
import { AuthError } from "@authlib/core/errors";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { loadCore } from "./core.js";
import { appendCookies } from "./response.js";
import type { FormFailure } from "./validation.js";

/** The type of a failed listing: one of `named`, or `"Configuration"`. Throws what is not an `AuthError`. */
export function listingError<Named extends string>(error: unknown, named: readonly Named[]): Named | "Configuration" {
  if (!(error instanceof AuthError)) throw error;
  return (named as readonly string[]).includes(error.type) ? (error.type as Named) : "Configuration";
}

/**
 * The form failure of a failed operation, with its status (by default the one core's session and
 * account routes answer for it), and the cookies core sets for it added to the response. `message` is
 * shown for `"Configuration"`, whose details are the operator's. Throws what is not an `AuthError`.
 */
export async function operationFailure<Field extends string, Code extends string>(
  ev: RequestEventCommon,
  error: unknown,
  message: string,
  statusOf?: (error: AuthError) => number | undefined,
): Promise<{ status: number; failure: FormFailure<Field, Code | "Configuration"> }> {
  if (!(error instanceof AuthError)) throw error;
  const core = await loadCore();
  appendCookies(ev, core, core.failureCookies(error));
  const status = (statusOf ?? core.sessionErrorStatus)(error);
  if (status === undefined) return { status: 500, failure: { formErrors: [message], fieldErrors: {}, code: "Configuration" } };
  return { status, failure: { formErrors: [error.message], fieldErrors: {}, code: error.type as Code } };
}
