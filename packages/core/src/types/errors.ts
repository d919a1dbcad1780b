/**
 * The names and shapes of authlib's errors, without the classes: what the configuration's types and the
 * pages need to name an error. `errors.ts` defines the classes and re-exports these.
 *
 * @module error-types
 */

/** The name of every error type authlib can raise. */
export type ErrorType =
  | "AccessDenied"
  | "AdapterError"
  | "CallbackRouteError"
  | "ErrorPageLoop"
  | "EventError"
  | "InvalidCallbackUrl"
  | "CredentialsSignin"
  | "InvalidEndpoints"
  | "InvalidCheck"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingSecret"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "SessionTokenError"
  | "OAuthSignInError"
  | "EmailSignInError"
  | "SignOutError"
  | "UnknownAction"
  | "RouteNotFound"
  | "MethodNotAllowed"
  | "UnsupportedStrategy"
  | "InvalidProvider"
  | "UntrustedHost"
  | "Verification"
  | "LinkAlreadyUsed"
  | "MissingCSRF"
  | "AccountNotLinked"
  | "DuplicateConditionalUI"
  | "MissingWebAuthnAutocomplete"
  | "WebAuthnVerificationError"
  | "ExperimentalFeatureNotEnabled"
  | "RateLimited"
  | "InvalidOriginConfig"
  | "UntrustedRedirectTarget"
  | "ProviderResponseTooLarge"
  | "InvalidIdTokenClaim"
  | "UnsupportedTokenType"
  | "SessionDataTooLarge"
  | "SessionDataTooDeep"
  | "WeakSecret"
  | "UnknownCredentialsUser"
  | "SessionRequired"
  | "SessionRegistryMissing"
  | "SessionNotFound"
  | "InvalidSessionId"
  | "InvalidSessionConfig"
  | "AccountsUnavailable"
  | "AccountNotFound"
  | "InvalidAccount"
  | "LastSignInMethod"
  | "PasskeyNotFound"
  | "InvalidPassword"
  | "IncorrectPassword"
  | "PasswordNotSet"
  | "InvalidName"
  | "RecentSignInRequired"
  | "IncorrectCode"
  | "TwoFactorExpired"
  | "TwoFactorAlreadyEnabled"
  | "TwoFactorNotEnabled"
  | "OrganizationNotFound"
  | "OrganizationForbidden"
  | "OrganizationPolicy"
  | "InvalidOrganization"
  | "SlugTaken"
  | "LastOwner"
  | "InvitationInvalid"
  | "DomainClaimed"
  | "DomainNotProven"
  | "OrganizationLimit";

/** Where an error sends the user: the sign-in page (`"signIn"`) or the error page (`"error"`). */
export type ErrorPageKind = "signIn" | "error";

/** Extra data attached to an error; `err` is the underlying error, when there is one. */
export type ErrorCause = Record<string, unknown> & { err?: Error };

/**
 * What every authlib error is, as a shape (the classes are in `errors.ts`): what a type-only module names
 * when it speaks of an error without importing the classes.
 */
export interface AuthErrorShape extends Error {
  type: ErrorType;
  kind: ErrorPageKind;
  code?: string;
  /** The HTTP status of this refusal where it is answered as JSON; `undefined` for the operator's errors. */
  status: number | undefined;
}
