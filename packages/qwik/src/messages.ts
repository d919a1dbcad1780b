/** The message a form shows for rejected credentials: the same words as core's built-in sign-in page. */
export const CREDENTIALS_SIGNIN_MESSAGE = "Sign in failed. Check the details you provided are correct.";
/** The message a form shows for a refusal by a rate limit: the same words as core's built-in sign-in page. */
export const RATE_LIMITED_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";
/** The message a form shows when a session could not be ended for a reason that is the operator's (the details are in the server log). */
export const REVOKE_FAILED_MESSAGE = "The session could not be ended. Please try again later.";
/** The message a form shows when an account could not be unlinked for a reason that is the operator's (the details are in the server log). */
export const UNLINK_FAILED_MESSAGE = "The account could not be unlinked. Please try again later.";

/** Shown when an impersonation could not start or stop for a reason that is the operator's (the details are in the server log). */
export const IMPERSONATION_FAILED_MESSAGE = "That did not work because of a problem on our side. Please try again later.";
/** Shown when a passkey could not be renamed or removed for a reason that is the operator's (the adapter failed, …). */
export const PASSKEY_FAILED_MESSAGE = "The passkey could not be changed. Please try again later.";
/** The message a password form shows when the action failed for a reason that is the operator's (the details are in the server log). */
export const PASSWORD_FAILED_MESSAGE = "That did not work because of a problem on our side. Please try again later.";
/** The message a sign-in form shows for an address core sends no sign-in mail to: the same words as core's built-in sign-in page. */
export const INVALID_ADDRESS_MESSAGE = "That is not an email address we can send a sign-in link to. Check it and try again.";
