/**
 * Password accounts (core's `Password()` provider) for `useSignUp`, `useRequestPasswordReset`,
 * `useResetPassword` and `useChangePassword` (entries of `operation-actions.ts`), and the mailed sign-in
 * code for `useEmailCode`: the instance's `auth.api` operations, in process. A success applies core's
 * cookies (the CSRF cookie a mailed link is bound to, the renewed session) and redirects as sign-in does
 * (`operation-actions.ts`); a failure the user caused is a form failure with its status, never an
 * exception or an error page (`passwordFailure` below).
 *
 * CSRF: as for sign-out, core refuses an operation the browser sent from another site (`MissingCSRF`),
 * and Qwik City's `checkOrigin` refuses a cross-origin action POST before it runs.
 */
import { type AuthError, InvalidPassword, RateLimited } from "@authlib/core/errors";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { operationFailure } from "./control.js";
import { PASSWORD_FAILED_MESSAGE, RATE_LIMITED_MESSAGE } from "./messages.js";
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
 * The failure mapping of the password actions: core's error as a form failure with its status (`statuses`),
 * its message under the field it is about, the rule a new password broke, and for a refusal by a rate
 * limit the `Retry-After` header and the sign-in page's words.
 */
export async function passwordFailure(
  ev: RequestEventCommon,
  context: AuthContext,
  error: unknown,
): Promise<{ status: number; failure: PasswordFailure<string> }> {
  const { status, failure } = await operationFailure<string, PasswordError>(ev, context, error, PASSWORD_FAILED_MESSAGE, statusOf);
  const shown: PasswordFailure<string> = { ...failure };
  const field = status === 503 ? undefined : fields[failure.code ?? ""];
  if (field) Object.assign(shown, { formErrors: [], fieldErrors: { [field]: failure.formErrors } });
  if (error instanceof InvalidPassword) shown.rule = error.rule;
  if (error instanceof RateLimited) {
    if (error.retryAfter !== undefined) ev.headers.set("Retry-After", String(error.retryAfter));
    shown.formErrors = [RATE_LIMITED_MESSAGE];
  }
  return { status, failure: shown };
}
