/**
 * Password accounts (core's `Password()` provider) for `useSignUp`, `useRequestPasswordReset`,
 * `useResetPassword` and `useChangePassword`, and the mailed sign-in code for `useEmailCode`: the
 * instance's `auth.api` operations, in process. A success
 * applies core's cookies (the CSRF cookie a mailed link is bound to, the renewed session) and redirects
 * as sign-in does (`sign-in.ts`); a failure the user caused is a form failure with its status, never an
 * exception or an error page (`control.ts`).
 *
 * CSRF: as for sign-out, core refuses an operation the browser sent from another site (`MissingCSRF`),
 * and Qwik City's `checkOrigin` refuses a cross-origin action POST before it runs.
 */
import type { AuthApi, RedirectResult, RequestLike } from "@authlib/core";
import { type AuthError, InvalidPassword, RateLimited } from "@authlib/core/errors";
import type { FailReturn, RequestEventAction } from "@builder.io/qwik-city";
import { type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { operationFailure } from "./control.js";
import { loadCore } from "./core.js";
import { PASSWORD_FAILED_MESSAGE, RATE_LIMITED_MESSAGE } from "./messages.js";
import { operationRequest } from "./operation.js";
import { appendCookies } from "./response.js";
import { redirect } from "./sign-in.js";
import type { FormFailure, FormResult } from "./validation.js";

/** The status of each error type a password action names; any other is a 500 `"Configuration"`. */
const statuses: Record<Exclude<PasswordError, "Configuration">, number> = {
  InvalidPassword: 400,
  InvalidName: 400,
  IncorrectCode: 400,
  EmailSignInError: 400,
  Verification: 400,
  SessionRequired: 401,
  IncorrectPassword: 403,
  MissingCSRF: 403,
  PasswordNotSet: 409,
  RateLimited: 429,
  TwoFactorExpired: 401,
  RecentSignInRequired: 403,
  TwoFactorAlreadyEnabled: 409,
  TwoFactorNotEnabled: 409,
};

/** The types of a failed password action: core's, or `"Configuration"` for the operator's (logged). */
export type PasswordError =
  | "InvalidPassword"
  | "InvalidName"
  | "IncorrectCode"
  | "EmailSignInError"
  | "Verification"
  | "SessionRequired"
  | "IncorrectPassword"
  | "MissingCSRF"
  | "PasswordNotSet"
  | "RateLimited"
  | "TwoFactorExpired"
  | "RecentSignInRequired"
  | "TwoFactorAlreadyEnabled"
  | "TwoFactorNotEnabled"
  | "Configuration";

/**
 * The failure of a password action: the message under the field it is about (`password` for
 * `InvalidPassword`, `name` for `InvalidName`, `currentPassword` for `IncorrectPassword`, `email` for an
 * address core refuses), else in `formErrors`; the error's type in `code`.
 */
export interface PasswordFailure<Field extends string> extends FormFailure<Field, PasswordError> {
  /** For `InvalidPassword`: the rule the new password broke. */
  rule?: InvalidPassword["rule"];
}

/** The value of a password action whose input is `Input`: nothing after a success (it redirects), or the failure. */
export type PasswordResult<Input> = FormResult<PasswordFailure<keyof Input & string>>;

/** The field an error type is about. */
const fields: Partial<Record<string, string>> = {
  InvalidPassword: "password",
  InvalidName: "name",
  IncorrectPassword: "currentPassword",
  IncorrectCode: "code",
  EmailSignInError: "email",
};

/**
 * The status of `error`. An `EmailSignInError` with a cause is a mail that could not be sent (503: not the
 * user's doing); without one, an address core refuses (400).
 */
export function statusOf(error: AuthError): number | undefined {
  if (error.type === "EmailSignInError" && error.cause !== undefined) return 503;
  return (statuses as Partial<Record<string, number>>)[error.type];
}

/**
 * Runs a password operation for the action's request. On success it applies core's cookies and redirects
 * (throws Qwik's 303 for a form POST; see `redirect`); `renewsSession` says the operation replaced this
 * browser's session, so later reads in this request must not read the old cookie. On failure the action
 * fails with the form failure and its status. Throws what is not an `AuthError`.
 */
export async function passwordAction<Field extends string>(
  ev: RequestEventAction,
  configQrl: FrameworkAuthConfigQrl,
  operation: (api: AuthApi, request: RequestLike) => Promise<RedirectResult>,
  renewsSession = false,
): Promise<FailReturn<PasswordFailure<Field>> | undefined> {
  const context = await loadAuthContext(ev, configQrl);
  let result: RedirectResult;
  try {
    result = await operation(context.auth.api, operationRequest(ev));
  } catch (error) {
    const { status, failure } = await operationFailure<Field, PasswordError>(ev, context, error, PASSWORD_FAILED_MESSAGE, statusOf);
    const shown: PasswordFailure<Field> = { ...failure };
    const field = status === 503 ? undefined : fields[failure.code ?? ""];
    if (field) Object.assign(shown, { formErrors: [], fieldErrors: { [field]: failure.formErrors } });
    if (error instanceof InvalidPassword) shown.rule = error.rule;
    if (error instanceof RateLimited) {
      if (error.retryAfter !== undefined) ev.headers.set("Retry-After", String(error.retryAfter));
      shown.formErrors = [RATE_LIMITED_MESSAGE];
    }
    return ev.fail(status, shown);
  }
  appendCookies(ev, await loadCore(), result.cookies);
  if (renewsSession) context.session = Promise.resolve(null);
  redirect(ev, result.redirect);
  return undefined;
}
