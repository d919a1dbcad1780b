/**
 * The one runner of the actions that run a core operation for the action's request (`operation-actions.ts`
 * lists them): it calls the operation through `auth.api`, answers its success as the action's value or as
 * a redirect, and its `AuthError` as a form failure with its status, never as an exception or an error
 * page. What differs between the actions (their success, their failure mapping) is data, given here.
 *
 * CSRF: core refuses an operation the browser sent from another site (`MissingCSRF`), and Qwik City's
 * `checkOrigin` refuses a cross-origin action POST before it runs.
 */
import type { OperationResult } from "@authlib/core";
import { UnknownAction } from "@authlib/core/errors";
import type { FailReturn, RequestEventAction } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { loadCore } from "./core.js";
import { appendCookies } from "./response.js";
import { redirect } from "./sign-in.js";
import type { FormFailure } from "./validation.js";

/**
 * What an action answers when its operation succeeded: `"data"`, the operation's data (its JSON body) as
 * the action's value; `"redirect"`, core's cookies set and the browser sent on with a 303, as `useSignIn`
 * does (a script-driven `<Form>` gets the URL in Qwik's data).
 */
export interface Success<Value> {
  readonly kind: "data" | "redirect";
  /** Set core's cookies after a `"data"` success too (a redirect always sets them). */
  readonly cookies?: boolean;
  /**
   * The operation changed this browser's session: `"reread"`, later reads in this request (the loaders
   * Qwik runs after the action) read it again; `"replaced"`, they find none (the old cookie is stale).
   */
  readonly session?: "reread" | "replaced";
  /** The type of the value (never set). */
  readonly value?: Value;
}

/** A failed operation as a form failure and its HTTP status. Throws what is not an `AuthError`. */
export type FailureMapping<Failure extends FormFailure<string>> = (
  ev: RequestEventAction,
  context: AuthContext,
  error: unknown,
) => Promise<{ status: number; failure: Failure }>;

/** How an action presents its operation's outcome. */
export interface Presentation<Value, Failure extends FormFailure<string>> {
  readonly success: Success<Value>;
  readonly failure: FailureMapping<Failure>;
}

/** A success whose value is the operation's data. */
export function data<Value>(options: Omit<Success<Value>, "kind" | "value"> = {}): Success<Value> {
  return { kind: "data", ...options };
}

/** A success that redirects (`session: "replaced"` when the operation renewed or replaced this browser's session). */
export function redirects(options: Omit<Success<undefined>, "kind" | "value" | "cookies"> = {}): Success<undefined> {
  return { kind: "redirect", ...options };
}

/**
 * Runs `call` (the operation, for the action's request) and presents its outcome: the action's value (a
 * redirect answers `undefined` after setting Qwik's redirect), or `ev.fail` with the failure.
 */
export async function presentOperation<Value, Failure extends FormFailure<string>>(
  ev: RequestEventAction,
  context: AuthContext,
  presentation: Presentation<Value, Failure>,
  call: () => Promise<OperationResult>,
): Promise<Value | FailReturn<Failure> | undefined> {
  const { kind, cookies, session } = presentation.success;
  let result: OperationResult;
  try {
    result = await call();
    // Every redirecting operation answers one; anything else is authlib's own bug, said as such.
    if (kind === "redirect" && !result.redirect) throw new UnknownAction("The operation answered without a redirect.");
  } catch (error) {
    const { status, failure } = await presentation.failure(ev, context, error);
    return ev.fail(status, failure);
  }
  if (kind === "redirect" || cookies) appendCookies(ev, await loadCore(), result.cookies);
  if (session === "reread") context.session = undefined;
  if (session === "replaced") context.session = Promise.resolve(null);
  if (kind === "data") return result.body as Value;
  redirect(ev, result.redirect as string);
  return undefined;
}
