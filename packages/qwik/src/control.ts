/**
 * What session control (`session-control.ts`), linked accounts (`accounts.ts`) and password accounts
 * (`password.ts`) share: each answers a failure as a value a page shows, never as an exception, and names
 * to clients only the error types it gives a status (core's own routes' for the first two:
 * `sessionErrorStatus`). Any other type (the adapter failed, …) is reported as `"Configuration"`, as
 * core's routes do; core has logged it. `RecentSignInRequired` (the owner-present rule) also sends the
 * browser to sign in again, back to the page.
 */
import { AuthError, RecentSignInRequired } from "@authlib/core/errors";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { loadCore } from "./core.js";
import { appendCookies } from "./response.js";
import { currentPage, redirect } from "./sign-in.js";
import type { FormFailure } from "./validation.js";

/**
 * Where a user signs in again to come back to this page (the app's sign-in page, else the built-in one),
 * with the `error` the sign-in page explains (`RecentSignInRequired`: this needs a recent sign-in).
 */
export function reauthenticationUrl(ev: RequestEventCommon, context: AuthContext, error?: string): string {
  const page = new URL(context.config.pages?.signIn ?? `${context.basePath}/signin`, ev.url);
  page.searchParams.set("callbackUrl", currentPage(ev));
  if (error) page.searchParams.set("error", error);
  return page.href;
}

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
  context: AuthContext,
  error: unknown,
  message: string,
  statusOf?: (error: AuthError) => number | undefined,
): Promise<{ status: number; failure: FormFailure<Field, Code | "Configuration"> }> {
  if (!(error instanceof AuthError)) throw error;
  const core = await loadCore();
  appendCookies(ev, core, core.failureCookies(error));
  // A change to how the user signs in that needs the owner present: sign in again, and come back here.
  if (error instanceof RecentSignInRequired) redirect(ev, reauthenticationUrl(ev, context, error.type));
  const status = (statusOf ?? core.sessionErrorStatus)(error);
  if (status === undefined) return { status: 500, failure: { formErrors: [message], fieldErrors: {}, code: "Configuration" } };
  const failure: FormFailure<Field, Code | "Configuration"> = { formErrors: [error.message], fieldErrors: {}, code: error.type as Code };
  if (error.details !== undefined) failure.details = error.details;
  return { status, failure };
}

/** A failed operation as a form failure and its HTTP status (`operation-actions.ts`). Throws what is not an `AuthError`. */
export type FailureMapping<Failure> = (
  ev: RequestEventCommon,
  context: AuthContext,
  error: unknown,
) => Promise<{ status: number; failure: Failure }>;

/**
 * The failure mapping of an operation of core's session, account and passkey routes (`operationFailure`
 * with the status those routes answer); `message` is shown for `"Configuration"`.
 */
export function controlFailure<Field extends string, Code extends string>(
  message: string,
): FailureMapping<FormFailure<Field, Code | "Configuration">> {
  return (ev, context, error) => operationFailure<Field, Code>(ev, context, error, message);
}
