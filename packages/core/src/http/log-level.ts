/**
 * How loud a failure is in the log, by what it means (the table is documented in docs/observability.md,
 * "Log levels"):
 *
 * - `debug`: the expected outcome of a user's own action (a wrong password or code, an expired link, a
 *   signed-out visitor on a page that needs a session). Not a server problem: the audit trail and the
 *   sign-in metrics still record it; the log shows it only with `debug: true`.
 * - `warn`: a signal the operator should see, caused by a client (a CSRF or check failure, a session
 *   cookie that does not decrypt, an untrusted host, a rate limit). Logged as a warning code, which names
 *   no user and quotes nothing the client sent.
 * - `error`: a fault on the server's side: the configuration, the adapter or store, a provider, the mail
 *   server, the app's own callbacks. Someone has to fix something.
 *
 * An error authlib does not know (not an `AuthError`, or an app's subclass with a type of its own) is an
 * `error`.
 *
 * @module http/log-level
 */
import { AuthError, type ErrorType } from "../errors.js";
import { describeError } from "../logger.js";
import type { LoggerInstance, WarningCode } from "../types/config.js";
import type { ErrorTypes } from "../types/errors.js";

const NONE: ReadonlySet<string> = new Set();

/** The level a failure is logged at. */
export type LogLevel = "debug" | "warn" | "error";

/**
 * The level of every error type. `satisfies Record<ErrorType, …>`: a new error type does not compile
 * until it is placed here.
 */
export const LOG_LEVELS = {
  // A user's expected failure.
  AccessDenied: "debug",
  ApiKeyNotFound: "debug",
  ApiKeyScopeExceeded: "debug",
  AccountNotFound: "debug",
  AccountNotLinked: "debug",
  CredentialsSignin: "debug",
  DomainClaimed: "debug",
  DomainNotProven: "debug",
  ImpersonationForbidden: "debug",
  IncorrectCode: "debug",
  IncorrectPassword: "debug",
  InvalidAccount: "debug",
  InvalidApiKey: "debug",
  InvalidApiKeyRequest: "debug",
  InvalidIdpMetadata: "debug",
  InvalidName: "debug",
  InvalidOrganization: "debug",
  InvalidPassword: "debug",
  InvalidSessionId: "debug",
  InvitationInvalid: "debug",
  LastOwner: "debug",
  LastSignInMethod: "debug",
  LinkAlreadyUsed: "debug",
  MethodNotAllowed: "debug",
  OAuthAccountNotLinked: "debug",
  OrganizationForbidden: "debug",
  OrganizationLimit: "debug",
  OrganizationNotFound: "debug",
  OrganizationPolicy: "debug",
  OAuthError: "debug",
  PasskeyNotFound: "debug",
  PasswordNotSet: "debug",
  RecentSignInRequired: "debug",
  RouteNotFound: "debug",
  SamlResponseRejected: "debug",
  SessionNotFound: "debug",
  SessionRequired: "debug",
  SlugTaken: "debug",
  UnknownAction: "debug",
  UserBanned: "debug",
  UserExists: "debug",
  UserNotFound: "debug",
  InvalidUser: "debug",
  Verification: "debug",
  WebAuthnVerificationError: "debug",
  // A client's request the operator should see.
  InvalidCheck: "warn",
  JWTSessionError: "warn",
  MissingCSRF: "warn",
  RateLimited: "warn",
  UntrustedHost: "warn",
  UntrustedRedirectTarget: "warn",
  // A fault on the server's side: configuration, adapter, provider, mail server, the app's callbacks.
  AccountsUnavailable: "error",
  AdapterError: "error",
  CallbackRouteError: "error",
  DuplicateConditionalUI: "error",
  EmailSignInError: "error",
  ErrorPageLoop: "error",
  EventError: "error",
  ExperimentalFeatureNotEnabled: "error",
  InvalidCallbackUrl: "error",
  InvalidEndpoints: "error",
  InvalidIdTokenClaim: "error",
  InvalidOriginConfig: "error",
  InvalidProvider: "error",
  InvalidSessionConfig: "error",
  MissingAdapter: "error",
  MissingAdapterMethods: "error",
  MissingAuthorize: "error",
  MissingSecret: "error",
  MissingWebAuthnAutocomplete: "error",
  SamlLibraryMissing: "error",
  InvalidSsoConfig: "error",
  OAuthCallbackError: "error",
  OAuthProfileParseError: "error",
  OAuthSignInError: "error",
  ProviderResponseTooLarge: "error",
  SessionDataTooDeep: "error",
  SessionDataTooLarge: "error",
  SessionRegistryMissing: "error",
  SessionTokenError: "error",
  SignOutError: "error",
  UnknownCredentialsUser: "error",
  UnsupportedStrategy: "error",
  UnsupportedTokenType: "error",
  WeakSecret: "error",
} as const satisfies Record<keyof ErrorTypes, LogLevel>;

/**
 * Types whose level depends on their `code`: an address the user mistyped is theirs, a mail not sent is
 * ours; an expired session cookie is expected, a cookie that does not decrypt is not.
 */
const LEVEL_BY_CODE: Partial<Record<ErrorType, Record<string, LogLevel>>> = {
  EmailSignInError: { "invalid-address": "debug" },
  // A session cookie past its `exp`: a returning user whose session ended.
  JWTSessionError: { expired: "debug" },
  // A client's callbackUrl off this origin (a crafted link) is a signal; the app's callback failing is ours.
  InvalidCallbackUrl: { "foreign-origin": "warn" },
};

/** The types logged at `warn`. */
type WarnType = { [T in keyof ErrorTypes]: (typeof LOG_LEVELS)[T] extends "warn" ? T : never }[keyof ErrorTypes];

/** The warning code each `warn` type is logged as. */
export const WARNING_CODES = {
  InvalidCheck: "check-failed",
  JWTSessionError: "session-cookie-refused",
  MissingCSRF: "csrf-refused",
  RateLimited: "rate-limited",
  UntrustedHost: "untrusted-host",
  UntrustedRedirectTarget: "redirect-refused",
} as const satisfies Record<WarnType, WarningCode>;

/** The warning code of a type logged at `warn` only for one of its codes (`LEVEL_BY_CODE`). */
const WARNING_CODES_BY_CODE: Partial<Record<ErrorType, Record<string, WarningCode>>> = {
  InvalidCallbackUrl: { "foreign-origin": "callback-url-refused" },
};

/** The warning code a `warn` failure is logged as. */
function warningCodeOf(error: AuthError): WarningCode {
  const byCode = error.code === undefined ? undefined : WARNING_CODES_BY_CODE[error.type]?.[error.code];
  return byCode ?? WARNING_CODES[error.type as WarnType];
}

/**
 * The level `error` is logged at. `quiet`: the error types of the configuration's features that are a
 * user's own failure (`FeatureDefinition.quietErrors`), logged at `debug`.
 */
export function logLevelOf(error: Error, quiet: ReadonlySet<string> = NONE): LogLevel {
  if (!(error instanceof AuthError)) return "error";
  if (!Object.hasOwn(LOG_LEVELS, error.type)) return quiet.has(error.type) ? "debug" : "error";
  const byCode = error.code === undefined ? undefined : LEVEL_BY_CODE[error.type]?.[error.code];
  return byCode ?? LOG_LEVELS[error.type as keyof ErrorTypes];
}

/**
 * Logs a failure at its level: `logger.debug` with the error's line (metadata `{ type, level, message, cause? }`),
 * `logger.warn` with its warning code (and the line at debug), or `logger.error` with the error.
 */
export function logFailure(logger: LoggerInstance, error: Error, quiet?: ReadonlySet<string>): void {
  const level = logLevelOf(error, quiet);
  if (level === "error") {
    logger.error(error);
    return;
  }
  if (level === "warn") logger.warn(warningCodeOf(error as AuthError));
  const facts = causeFacts(error as AuthError);
  logger.debug(describeError(error), { type: (error as AuthError).type, level, message: error.message, ...(facts && { cause: facts }) });
}

/**
 * The yes/no and numeric facts an error's cause records (a sign-in link: `{ hasInvite, expired }`), for the
 * debug line's metadata. Only booleans and numbers: a string or an object could quote what a user typed.
 */
function causeFacts(error: AuthError): Record<string, boolean | number> | undefined {
  const entries = Object.entries(error.cause ?? {}).filter(([, value]) => typeof value === "boolean" || typeof value === "number");
  return entries.length > 0 ? (Object.fromEntries(entries) as Record<string, boolean | number>) : undefined;
}
