/** The message a form shows for rejected credentials: the same words as core's built-in sign-in page. */
export const CREDENTIALS_SIGNIN_MESSAGE = "Sign in failed. Check the details you provided are correct.";
/** The message a form shows for a refusal by a rate limit: the same words as core's built-in sign-in page. */
export const RATE_LIMITED_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";
