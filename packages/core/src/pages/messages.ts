/**
 * What the pages say about an error. The error type arrives as a query parameter, so it is user input:
 * it is only ever used as a lookup key (own properties only, so `constructor` or `__proto__` find
 * nothing) and never shown itself.
 *
 * @module pages/messages
 */

/** The sign-in page's message for an error type it does not know (and for no type at all). */
export const DEFAULT_SIGNIN_ERROR_MESSAGE = "Unable to sign in.";

const TRY_ANOTHER_ACCOUNT = "Try signing in with a different account.";
const USE_ORIGINAL_ACCOUNT = "To confirm your identity, sign in with the same account you used originally.";
const EMAIL_NOT_SENT = "The e-mail could not be sent.";
const ACCESS_DENIED_AT_PROVIDER = "The sign-in was cancelled or refused at the provider. Try again, or choose another way to sign in.";
const INVALID_ADDRESS = "That is not an email address we can send a sign-in link to. Check it and try again.";

const SIGNIN_ERROR_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  Signin: TRY_ANOTHER_ACCOUNT,
  OAuthSignin: TRY_ANOTHER_ACCOUNT,
  OAuthSignInError: TRY_ANOTHER_ACCOUNT,
  OAuthCallbackError: TRY_ANOTHER_ACCOUNT,
  // Kinds of OAuthCallbackError (issue 19): the provider's answer was refused.
  ProviderResponseTooLarge: TRY_ANOTHER_ACCOUNT,
  InvalidIdTokenClaim: TRY_ANOTHER_ACCOUNT,
  UnsupportedTokenType: TRY_ANOTHER_ACCOUNT,
  OAuthCreateAccount: TRY_ANOTHER_ACCOUNT,
  EmailCreateAccount: TRY_ANOTHER_ACCOUNT,
  Callback: TRY_ANOTHER_ACCOUNT,
  OAuthAccountNotLinked: USE_ORIGINAL_ACCOUNT,
  // The WebAuthn counterpart of OAuthAccountNotLinked.
  AccountNotLinked: USE_ORIGINAL_ACCOUNT,
  EmailSignin: EMAIL_NOT_SENT,
  EmailSignInError: EMAIL_NOT_SENT,
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
  MissingCSRF: "Your sign-in form expired. Please try again.",
  AccessDenied: "You do not have permission to sign in.",
  Verification: "The sign-in link is no longer valid. It may have been used already or it may have expired.",
  RateLimited: "Too many attempts. Please wait a few minutes and try again.",
  TwoFactorExpired: "Your sign-in waited too long for its second step, or began in another browser. Sign in again.",
});

function lookup<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * The message the sign-in page shows for `?error=<type>` (and `?code=`: an address authlib does not send
 * to is not a mail that failed): the type's own message, the default one for an unknown type, or
 * `undefined` when there is no error.
 */
export function signInErrorMessage(error: string | undefined, code?: string): string | undefined {
  if (error === undefined || error === "") return undefined;
  if (error === "EmailSignInError" && code === "invalid-address") return INVALID_ADDRESS;
  if (error === "OAuthCallbackError" && code === "access_denied") return ACCESS_DENIED_AT_PROVIDER;
  return lookup(SIGNIN_ERROR_MESSAGES, error) ?? DEFAULT_SIGNIN_ERROR_MESSAGE;
}

// `?code=` refines CredentialsSignin (a subclass of it sets its own `code`). It is shown only when it looks
// like an identifier: free text in the alert would let anyone put words in the page's mouth with a link.
const DISPLAYABLE_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The `code` worth showing next to a CredentialsSignin message, or `undefined`: the default `credentials`
 * says nothing, and anything that is not a short identifier is not shown.
 */
export function displayableErrorCode(error: string | undefined, code: string | undefined): string | undefined {
  if (error !== "CredentialsSignin" || code === undefined || code === "credentials") return undefined;
  return DISPLAYABLE_CODE.test(code) ? code : undefined;
}

/** What the error page shows for one error type, and the HTTP status it is served with. */
export interface ErrorPageContent {
  status: number;
  heading: string;
  paragraphs: readonly string[];
  /** Whether to offer signing in again (pointless when the server is misconfigured). */
  offerSignIn: boolean;
}

const ERROR_PAGE_CONTENT: Readonly<Record<string, ErrorPageContent>> = Object.freeze({
  Configuration: {
    status: 500,
    heading: "Server error",
    paragraphs: ["There is a problem with the server configuration.", "Check the server logs for more information."],
    offerSignIn: false,
  },
  AccessDenied: {
    status: 403,
    heading: "Access denied",
    paragraphs: ["You do not have permission to sign in."],
    offerSignIn: true,
  },
  Verification: {
    status: 403,
    heading: "Unable to sign in",
    paragraphs: ["The sign in link is no longer valid.", "It may have been used already or it may have expired."],
    offerSignIn: true,
  },
});

/**
 * The error page for a type no entry covers, and for no type. Status 200 as in Auth.js: the page itself
 * was served fine, and the same URL without `?error` is a plain landing page.
 */
export const DEFAULT_ERROR_PAGE_CONTENT: ErrorPageContent = Object.freeze({
  status: 200,
  heading: "Error",
  paragraphs: ["Something went wrong while signing you in. Please try again."],
  offerSignIn: true,
});

/** The error page's content for `?error=<type>` (the default for unknown types). */
export function errorPageContent(error: string | undefined): ErrorPageContent {
  return lookup(ERROR_PAGE_CONTENT, error) ?? DEFAULT_ERROR_PAGE_CONTENT;
}

const PASSWORD_ERROR_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  InvalidName: "Use a name of one line, at most 64 characters.",
  EmailSignInError: "Check the email address. If it is right, the email could not be sent: try again later.",
  MissingCSRF: "The form expired. Please try again.",
  RateLimited: "Too many attempts. Please wait a few minutes and try again.",
  Verification: "This link is not valid any more. Ask for a new one.",
});

/**
 * The message a password page shows for `?error=<type>` (and, for `InvalidPassword`, the rule in
 * `?code=`), or `undefined` when there is no error.
 */
export function passwordErrorMessage(
  error: string | undefined,
  code: string | undefined,
  rules: { minLength: number; maxLength: number },
): string | undefined {
  if (error === undefined || error === "") return undefined;
  if (error === "InvalidPassword") {
    if (code === "too-short") return `Use at least ${rules.minLength} characters for your password.`;
    if (code === "too-long") return `Use at most ${rules.maxLength} characters for your password.`;
    return "Choose a password.";
  }
  return lookup(PASSWORD_ERROR_MESSAGES, error) ?? "Something went wrong. Please try again.";
}

const ACCOUNT_NOTICES: Readonly<Record<string, string>> = Object.freeze({
  "password-changed": "Your password was changed. Your other devices were signed out.",
  unlinked: "The account was unlinked.",
  "email-sent": "We sent a link to the new address. Follow it (signed in to this account) to start using it.",
  "email-changed": "Your email address was changed.",
});

const ACCOUNT_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  LastSignInMethod: "That is your last way to sign in: link another account, add a passkey or set a password first.",
  AccountNotFound: "That account is not linked to you.",
  IncorrectPassword: "The current password is not right.",
  InvalidPassword: "The new password cannot be used: check its length.",
  PasswordNotSet: "You have no password yet: set one by email.",
  MissingCSRF: "The form expired. Please try again.",
  RateLimited: "Too many attempts. Please wait a few minutes and try again.",
  EmailSignInError: "Check the email address. If it is right, the email could not be sent: try again later.",
  RecentSignInRequired: "Sign in again (within 10 minutes) to delete your account.",
  Verification: "This link is not valid any more. Ask for a new one.",
});

/** The account page's message for `?error=` (an alert) or `?done=` (a notice), or `undefined`. */
export function accountNotice(error: string | undefined, done: string | undefined): { message: string; error: boolean } | undefined {
  if (error) return { message: lookup(ACCOUNT_ERRORS, error) ?? "Something went wrong. Please try again.", error: true };
  const message = lookup(ACCOUNT_NOTICES, done);
  return message ? { message, error: false } : undefined;
}

const CODE_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  IncorrectCode: "That is not the code in the email. Check it and try again.",
  RateLimited: "Too many codes tried. Use the link in the email, or wait a few minutes and try again.",
  MissingCSRF: "The form expired. Please try again.",
});

/** The verify-request page's message for a refused code (`?error=`), or `undefined`. */
const SECOND_STEP_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  IncorrectCode: "That code did not work. Check your authenticator app, or use an unused recovery code.",
  RateLimited: "Too many codes tried. Please wait a few minutes and try again.",
  MissingCSRF: "The form expired. Please try again.",
  WebAuthnVerificationError: "The passkey could not be used. Try again, or use a code.",
  InvalidCheck: "The passkey request expired. Try again.",
});

/** The message the second step's page shows for `?error=<type>` after a refused try, or `undefined`. */
export function secondStepErrorMessage(error: string | undefined): string | undefined {
  if (error === undefined || error === "") return undefined;
  return lookup(SECOND_STEP_ERRORS, error) ?? "That did not work. Please try again.";
}

export function codeErrorMessage(error: string | undefined): string | undefined {
  if (error === undefined || error === "") return undefined;
  return lookup(CODE_ERRORS, error) ?? "The code could not be used. Use the link in the email, or ask for a new one.";
}
