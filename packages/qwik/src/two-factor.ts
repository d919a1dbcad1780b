/**
 * Second factors for `FrameworkAuth$`: the second step of a sign-in (`useTwoFactor`), an authenticator
 * app turned on and off (`useEnrollTotp`, `useConfirmTotp`, `useDisableTotp`), what the signed-in user has
 * (`useTwoFactorStatus`), and step-up (`requireRecentAuth`). They are core's `auth.api` operations, in
 * process; a user's mistake is a form failure with its status, and a sign-in that is too old for an
 * operation (`RecentSignInRequired`) sends the browser to sign in again and come back.
 */
import type { RecentAuthInput, SessionAssurance, TotpEnrollment, TwoFactorStatus } from "@authlib/core";
import { AuthError, RecentSignInRequired, SessionRequired } from "@authlib/core/errors";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { type AuthContext, type FrameworkAuthConfigQrl, loadAuthContext, requireAuthContext } from "./context.js";
import { operationFailure, reauthenticationUrl } from "./control.js";
import { PASSWORD_FAILED_MESSAGE } from "./messages.js";
import { operationRequest } from "./operation.js";
import { type PasswordError, type PasswordFailure, statusOf } from "./password.js";

/**
 * Step-up for the app's own loaders and actions: the session's assurance when the user signed in at most
 * `maxAge` seconds ago, at level `aal` or more. Otherwise (or signed out) the browser is sent to sign in
 * again, back to this page.
 */
export async function requireRecentAuth(ev: RequestEventCommon, input: RecentAuthInput): Promise<SessionAssurance & { userId: string }> {
  const context = await requireAuthContext(ev);
  try {
    return await context.auth.api.requireRecentAuth(operationRequest(ev), input);
  } catch (error) {
    if (error instanceof RecentSignInRequired || error instanceof SessionRequired)
      throw ev.redirect(302, reauthenticationUrl(ev, context, error instanceof RecentSignInRequired ? error.type : undefined));
    throw error;
  }
}

/** The value of a second-factor settings action: what the operation answered, or the form failure. */
export type TwoFactorResult<Value, Field extends string = "code"> =
  | (Value & { failed?: undefined })
  | ({ failed: true } & PasswordFailure<Field>);

/**
 * The failure mapping of the settings actions (enroll, confirm, disable): any `AuthError` the user caused
 * is a form failure with its status (`IncorrectCode` under `code`); `RecentSignInRequired` has sent the
 * browser to sign in again, back to this page (`operationFailure`).
 */
export async function settingsFailure(
  ev: RequestEventCommon,
  context: AuthContext,
  error: unknown,
): Promise<{ status: number; failure: PasswordFailure<"code"> }> {
  const { status, failure } = await operationFailure<"code", PasswordError>(ev, context, error, PASSWORD_FAILED_MESSAGE, statusOf);
  const shown =
    error instanceof AuthError && error.type === "IncorrectCode"
      ? { ...failure, formErrors: [], fieldErrors: { code: failure.formErrors } }
      : failure;
  return { status, failure: shown };
}

/** The signed-in user's second factors, or `null` when nobody is signed in (or `twoFactor` is off). */
export async function twoFactorStatus(ev: RequestEventCommon, configQrl: FrameworkAuthConfigQrl): Promise<TwoFactorStatus | null> {
  const context = await loadAuthContext(ev, configQrl);
  try {
    return await context.auth.api.getTwoFactorStatus(operationRequest(ev));
  } catch (error) {
    if (error instanceof AuthError) return null;
    throw error;
  }
}

export type { TotpEnrollment, TwoFactorStatus };
