/**
 * The names and shapes of authlib's errors, without the classes: what the configuration's types and the
 * pages need to name an error. `errors.ts` defines the classes and re-exports these.
 *
 * @module error-types
 */

/**
 * The error types of authlib's shared floors, by name (each one's log level: `http/log-level.ts`).
 */
export interface ErrorTypes {
  AccessDenied: true;
  AdapterError: true;
  CallbackRouteError: true;
  ErrorPageLoop: true;
  EventError: true;
  InvalidCallbackUrl: true;
  CredentialsSignin: true;
  InvalidEndpoints: true;
  InvalidCheck: true;
  JWTSessionError: true;
  MissingAdapter: true;
  MissingAdapterMethods: true;
  MissingAuthorize: true;
  MissingSecret: true;
  OAuthAccountNotLinked: true;
  OAuthCallbackError: true;
  OAuthProfileParseError: true;
  SessionTokenError: true;
  OAuthSignInError: true;
  EmailSignInError: true;
  SignOutError: true;
  UnknownAction: true;
  RouteNotFound: true;
  MethodNotAllowed: true;
  UnsupportedStrategy: true;
  InvalidProvider: true;
  UntrustedHost: true;
  Verification: true;
  LinkAlreadyUsed: true;
  MissingCSRF: true;
  AccountNotLinked: true;
  DuplicateConditionalUI: true;
  MissingWebAuthnAutocomplete: true;
  WebAuthnVerificationError: true;
  ExperimentalFeatureNotEnabled: true;
  RateLimited: true;
  InvalidOriginConfig: true;
  UntrustedRedirectTarget: true;
  ProviderResponseTooLarge: true;
  InvalidIdTokenClaim: true;
  UnsupportedTokenType: true;
  SessionDataTooLarge: true;
  SessionDataTooDeep: true;
  WeakSecret: true;
  UnknownCredentialsUser: true;
  SessionRequired: true;
  SessionRegistryMissing: true;
  SessionNotFound: true;
  InvalidSessionId: true;
  InvalidSessionConfig: true;
  AccountsUnavailable: true;
  AccountNotFound: true;
  InvalidAccount: true;
  LastSignInMethod: true;
  PasskeyNotFound: true;
  InvalidPassword: true;
  IncorrectPassword: true;
  PasswordNotSet: true;
  InvalidName: true;
  RecentSignInRequired: true;
  ImpersonationForbidden: true;
  IncorrectCode: true;
  OrganizationNotFound: true;
  OrganizationForbidden: true;
  OrganizationPolicy: true;
  OAuthError: true;
  InvalidOrganization: true;
  SlugTaken: true;
  LastOwner: true;
  InvitationInvalid: true;
  DomainClaimed: true;
  DomainNotProven: true;
  OrganizationLimit: true;
  InvalidApiKey: true;
  ApiKeyScopeExceeded: true;
  ApiKeyNotFound: true;
  InvalidApiKeyRequest: true;
  UserBanned: true;
  UserNotFound: true;
  InvalidUser: true;
  UserExists: true;
  SamlResponseRejected: true;
  InvalidSsoConfig: true;
  InvalidIdpMetadata: true;
  SamlLibraryMissing: true;
}

/**
 * The error types of authlib's own features, by name: each feature's added by declaration merging next to
 * its classes (`errors.ts`). Their log levels are the features' own (`FeatureDefinition.quietErrors`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: the features' error types are merged into it
export interface FeatureErrorTypes {}

/**
 * Why a SAML response was refused (`SamlResponseRejected.reason`): for audit rows and tests. `malformed` also
 * covers what the SP refuses by shape (an encrypted assertion, a DTD, a second assertion).
 */
export type SamlRejectionReason =
  | "malformed"
  | "signature"
  | "issuer"
  | "audience"
  | "recipient"
  | "destination"
  | "expired"
  | "notYetValid"
  | "inResponseTo"
  | "idpInitiated"
  | "replayed"
  | "nameId"
  | "status";

/** The name of every error type authlib can raise. */
export type ErrorType = keyof ErrorTypes | keyof FeatureErrorTypes;

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
