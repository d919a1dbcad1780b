/**
 * Every error authlib raises. Each class has one `type`, which is what the logs, the error page
 * (`?error=<type>`) and `instanceof` checks key on.
 *
 * @module errors
 */

import type { ErrorCause, ErrorPageKind, ErrorType, SamlRejectionReason } from "./types/errors.js";

export type { ErrorCause, ErrorPageKind, ErrorType, SamlRejectionReason };

/**
 * Base class of every authlib error.
 *
 * Accepts the same arguments as `Error`, plus an `Error` as first argument (it becomes `cause.err`):
 * `new AuthError("message", { cause })`, `new AuthError({ cause })`, `new AuthError(err)`.
 */
export class AuthError extends Error {
  /** Identifies the error in logs and in the `?error=` query of the error page. */
  type: ErrorType;
  /** Which built-in page the error leads to. */
  kind: ErrorPageKind;
  /**
   * A short public name of the cause, for the types that tell causes apart (`CredentialsSignin`,
   * `EmailSignInError`, a refusal at an OAuth provider): the sign-in or error page gets it as `?code=`.
   */
  declare code?: string;
  declare cause?: ErrorCause;
  /** The HTTP status of this refusal where it is answered as JSON (see {@link AuthError.status | the class's}). */
  status: number | undefined;
  /** What a JSON refusal tells the client besides its type (what a policy misses, where to step up); never a secret. */
  declare details?: Readonly<Record<string, unknown>>;

  /** The error type of this class. Subclasses override it. */
  static type: ErrorType | "AuthError" = "AuthError";
  /** The page this class of error leads to. */
  static kind: ErrorPageKind = "error";
  /**
   * The HTTP status of this class of refusal where it is answered as JSON (a route scripts call with
   * `fetch`): `undefined` for an error that is the operator's (answered as a 500 that names no detail).
   */
  static status: number | undefined = undefined;

  constructor(message?: string | Error | ErrorOptions, errorOptions?: ErrorOptions) {
    if (message instanceof Error) {
      const inner = message.cause;
      const extra = typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : {};
      super(message.message, { cause: { err: message, ...extra, ...(errorOptions?.cause as object) } });
    } else if (typeof message === "string") {
      super(message, errorOptions ? { cause: normaliseCause(errorOptions.cause) } : undefined);
    } else {
      const options = message ?? errorOptions;
      super(undefined, options ? { cause: normaliseCause(options.cause) } : undefined);
    }
    const ctor = new.target as unknown as typeof AuthError;
    // Built-in classes are named by their type, which survives minification; app subclasses by their class.
    this.name = Object.hasOwn(ctor, "type") ? ctor.type : ctor.name;
    this.type = ctor.type as ErrorType;
    this.kind = ctor.kind;
    this.status = ctor.status;
    Error.captureStackTrace?.(this, new.target);
  }
}

function normaliseCause(cause: unknown): ErrorCause | undefined {
  if (cause === undefined) return undefined;
  if (cause instanceof Error) return { err: cause };
  if (typeof cause === "object" && cause !== null) return cause as ErrorCause;
  return { value: cause };
}

/** Errors of this kind send the user back to the sign-in page, with `?error=<type>`. */
export class SignInError extends AuthError {
  static override kind: ErrorPageKind = "signIn";
}

/** The `signIn` callback returned `false` or threw. The message is the original error's message. */
export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied";
}

/** An adapter method threw. The original error is in `cause.err`. */
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError";
}

/** An unexpected error inside the callback route (provider exchange, profile, session write). */
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError";
}

/** The custom error page itself requires authentication, which would loop forever. */
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop";
}

/** An `events.*` handler threw. It is logged and never interrupts the flow. */
export class EventError extends AuthError {
  static override type: ErrorType = "EventError";
}

/**
 * A `callbackUrl` (query, body or cookie) is not a valid same-origin URL; the base URL is used instead.
 * `code` `"foreign-origin"`: the client's URL named another origin (logged as a warning, the client's
 * doing); `"callback-failed"`: the app's `redirect` callback threw or returned no usable URL (an error).
 */
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl";
  override code: "foreign-origin" | "callback-failed" = "callback-failed";
}

/**
 * Thrown from a credentials provider's `authorize` to reject a sign-in. The user is sent to the sign-in
 * page with `?error=CredentialsSignin&code=<code>`. Subclass it to set your own `code`, but keep the code
 * free of details an attacker could use (such as which field was wrong): it ends up in the URL.
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin";
  /** Shown in the `code` query parameter of the sign-in page. */
  override code = "credentials";
}

/** An OAuth provider has neither an `issuer` nor the endpoint it needs. */
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints";
}

/** A PKCE, state, nonce or WebAuthn challenge check failed: missing, unreadable or for another provider. */
export class InvalidCheck extends AuthError {
  static override type: ErrorType = "InvalidCheck";
}

/** A session JWT could not be decoded or encoded. */
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError";
}

/** A feature that needs a database adapter (email, database sessions, passkeys) is used without one. */
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter";
}

/** The adapter lacks methods a configured feature needs. The message lists them. */
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods";
  static override status: number | undefined = 501;
}

/** A credentials provider has no `authorize` function. */
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize";
}

/** No `secret` is configured. Set `AUTH_SECRET` (at least 32 random bytes) or `config.secret`. */
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret";
}

/** The OAuth account is linked to another user, or its email belongs to another user. */
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked";
}

/**
 * The OAuth provider answered the callback with an error, or its response failed validation. `code` is
 * `"access_denied"` when the provider says the user (or its policy) refused, e.g. "Deny" on its consent
 * page; the sign-in page gets it as `?code=`.
 */
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError";
  declare code?: "access_denied";
}

/** A provider's `profile()` threw or returned something that is not a profile. */
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError";
}

/** Looking up a database session failed. */
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError";
}

/** Starting an OAuth sign-in failed (discovery, authorization URL). */
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError";
}

/**
 * No sign-in mail left: the address is not one authlib sends to (`code` `"invalid-address"`, nothing was
 * sent), or sending it failed (`"not-sent"`). The sign-in page gets the code as `?code=`.
 */
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError";
  /** Answered as JSON (an invitation's mail): the mail service did not take it; try again later. */
  static override status: number | undefined = 503;
  override code: "invalid-address" | "not-sent" = "not-sent";
}

/** Ending the session failed; the cookies are cleared anyway. */
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError";
}

/** The request path or method does not match any action. */
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction";
  static override status: number | undefined = 400;
}

/** The path is not one of authlib's routes under its base path (answered with HTTP 404). */
export class RouteNotFound extends UnknownAction {
  static override type: ErrorType = "RouteNotFound";
  static override status: number | undefined = 404;
}

/** The request's method is neither GET nor POST (answered with HTTP 405). */
export class MethodNotAllowed extends UnknownAction {
  static override type: ErrorType = "MethodNotAllowed";
  static override status: number | undefined = 405;
}

/** The chosen session strategy cannot work with the configured providers. */
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy";
}

/**
 * The provider id is unknown, or the provider cannot handle this route; at start-up: a provider's id is
 * invalid or taken twice, or an OAuth/OIDC provider has no client id (`AUTH_<ID>_ID` or `clientId`).
 */
export class InvalidProvider extends AuthError {
  static override type: ErrorType = "InvalidProvider";
}

/** The request host is not trusted. Set `trustHost: true` (or `AUTH_TRUST_HOST=true`) behind a proxy you control. */
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost";
  static override status: number | undefined = 400;
}

/** An email sign-in link is unknown, used already, expired or for another address. */
export class Verification extends AuthError {
  static override type: ErrorType = "Verification";
}

/** A state-changing request came without a valid CSRF token. */
export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF";
  static override status: number | undefined = 403;
}

/** A passkey could not be linked to the user (its email belongs to another user). */
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked";
}

/** More than one WebAuthn provider enables conditional UI. */
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = "DuplicateConditionalUI";
}

/** Conditional UI is on, but no form field has `autocomplete` containing `webauthn`. */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = "MissingWebAuthnAutocomplete";
}

/** A WebAuthn registration or authentication response did not verify. */
export class WebAuthnVerificationError extends AuthError {
  static override type: ErrorType = "WebAuthnVerificationError";
}

/** An experimental feature is used without being enabled in `experimental`. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled";
}

/**
 * Too many attempts in a short time: failed sign-ins for one account or from one client address, sign-in
 * mails to one mailbox, passkey or session-update requests from one client, or password hashes waiting
 * (see `rateLimit` in the configuration). Try again later. Fetch clients get HTTP 429 with `Retry-After`.
 */
export class RateLimited extends SignInError {
  static override type: ErrorType = "RateLimited";
  static override status: number | undefined = 429;
  /** Seconds until a new attempt may be accepted, when known (sent as `Retry-After` to fetch clients). */
  retryAfter?: number;
}

/**
 * The origin settings are malformed: `url` / `AUTHLIB_URL` is not an absolute http(s) URL (or holds
 * credentials, a query or a fragment), or a `trustedHosts` / `redirectProxyAllowedOrigins` pattern does
 * not follow the documented syntax, or a custom page (`pages.*`) leads off the app's origin. Reported at
 * start-up, never a silent fallback to the request's host.
 */
export class InvalidOriginConfig extends AuthError {
  static override type: ErrorType = "InvalidOriginConfig";
}

/**
 * The redirect proxy was asked (by a sealed state) to forward a callback to an origin that is not on its
 * allow-list (`redirectProxyAllowedOrigins`, default: origins of `trustedHosts`). Nothing is forwarded.
 */
export class UntrustedRedirectTarget extends AuthError {
  static override type: ErrorType = "UntrustedRedirectTarget";
}

/**
 * A provider's response (discovery, token, userinfo, a preset's API call) was larger than the provider's
 * `maxResponseBytes` (default 1 MiB). authlib stopped reading at the limit; `cause` has `url` (origin and
 * path only) and `limit`.
 */
export class ProviderResponseTooLarge extends OAuthCallbackError {
  static override type: ErrorType = "ProviderResponseTooLarge";
}

/**
 * An ID token passed oauth4webapi's validation but breaks a rule authlib adds: `azp` present and not the
 * client id, or `iat` further in the future than the clock tolerance. `cause.claim` names the claim.
 */
export class InvalidIdTokenClaim extends OAuthCallbackError {
  static override type: ErrorType = "InvalidIdTokenClaim";
}

/**
 * The token endpoint issued a token authlib cannot use as a Bearer token (e.g. `token_type: "DPoP"`:
 * authlib does not send DPoP proofs). `cause.tokenType` is the type received.
 */
export class UnsupportedTokenType extends OAuthCallbackError {
  static override type: ErrorType = "UnsupportedTokenType";
}

/** `POST /session` carried `data` larger than the limit (answered with HTTP 413). */
export class SessionDataTooLarge extends AuthError {
  static override type: ErrorType = "SessionDataTooLarge";
}

/** `POST /session` carried `data` nested deeper than the limit (answered with HTTP 400). */
export class SessionDataTooDeep extends AuthError {
  static override type: ErrorType = "SessionDataTooDeep";
}

/**
 * In production (`NODE_ENV=production`), a secret (any of a rotation list) is shorter than 32 bytes.
 * Reported at start-up; generate one with `npx authlib secret`.
 */
export class WeakSecret extends AuthError {
  static override type: ErrorType = "WeakSecret";
}

/**
 * A credentials provider's `authorize()` returned a user that the adapter does not know (neither its id
 * nor its email), while sessions are kept in the database: a session row must point at a stored user.
 * The app creates the user in the adapter first (`adapter.createUser`, e.g. at sign-up), or keeps
 * credentials sessions as JWTs. A server-side mistake, so the user sees the configuration error page.
 */
export class UnknownCredentialsUser extends AuthError {
  static override type: ErrorType = "UnknownCredentialsUser";
}

/**
 * A session operation (listing or revoking sessions) was asked for by a request with no session: nobody
 * is signed in, or the session was revoked or expired. HTTP 401 on the session routes.
 */
export class SessionRequired extends AuthError {
  static override type: ErrorType = "SessionRequired";
  static override status: number | undefined = 401;
}

/**
 * Sessions cannot be listed or revoked with this configuration: JWT sessions without a registry
 * (`session.store`, or an adapter with the session record methods), or database sessions in an adapter
 * without those methods. HTTP 501 on the session routes. See docs/sessions.md.
 */
export class SessionRegistryMissing extends AuthError {
  static override type: ErrorType = "SessionRegistryMissing";
  static override status: number | undefined = 501;
}

/**
 * The session to revoke is not one of the caller's live sessions: it never existed, it already ended, or
 * it is another user's (the same answer, so an id tells nothing about other users). Nothing changed.
 * HTTP 404 on the session routes.
 */
export class SessionNotFound extends AuthError {
  static override type: ErrorType = "SessionNotFound";
  static override status: number | undefined = 404;
}

/** A `session` option of the configuration is not valid (`revocation`, `revalidateAfter`, `maxPerUser`, `store`). Reported at start-up. */
export class InvalidSessionConfig extends AuthError {
  static override type: ErrorType = "InvalidSessionConfig";
}

/** The session id given is not one (malformed, or missing). Nothing changed. HTTP 400 on the session routes. */
export class InvalidSessionId extends AuthError {
  static override type: ErrorType = "InvalidSessionId";
  static override status: number | undefined = 400;
}

/**
 * Linked accounts cannot be listed or unlinked with this configuration: there is no adapter, or it lacks
 * `listAccountsByUserId` or `unlinkAccount`. HTTP 501 on the account routes. See docs/accounts.md.
 */
export class AccountsUnavailable extends AuthError {
  static override type: ErrorType = "AccountsUnavailable";
  static override status: number | undefined = 501;
}

/**
 * The account to unlink is not one of the caller's: it never existed, it was unlinked already, or it is
 * another user's (the same answer, so a guess tells nothing about other users). Nothing changed. HTTP 404
 * on the account routes.
 */
export class AccountNotFound extends AuthError {
  static override type: ErrorType = "AccountNotFound";
  static override status: number | undefined = 404;
}

/**
 * The account to unlink is not named (`provider` and `providerAccountId` missing or not strings), or it
 * is a passkey, which is not unlinked but removed with the passkeys. Nothing changed. HTTP 400 on the
 * account routes.
 */
export class InvalidAccount extends AuthError {
  static override type: ErrorType = "InvalidAccount";
  static override status: number | undefined = 400;
}

/**
 * Unlinking the account would leave the user no way to sign in: no other linked account of a configured
 * provider, no passkey, and no proven address with an email provider configured. Nothing changed. HTTP
 * 409 on the account routes.
 */
export class LastSignInMethod extends AuthError {
  static override type: ErrorType = "LastSignInMethod";
  static override status: number | undefined = 409;
}

/**
 * The passkey to rename or remove is not one of the caller's: not named, never registered, removed
 * already, or another user's (the same answer, so a guess tells nothing about other users). Nothing
 * changed. HTTP 404 on the passkey routes.
 */
export class PasskeyNotFound extends AuthError {
  static override type: ErrorType = "PasskeyNotFound";
  static override status: number | undefined = 404;
}

/**
 * A new password breaks one of the password rules (`Password({ minLength, maxLength })`, 8 to 128
 * characters by default). `rule` says which (`"too-short"`, `"too-long"`, `"missing"`); the message says
 * the limit. Nothing changed. Shown on the form that sent it.
 */
export class InvalidPassword extends AuthError {
  static override type: ErrorType = "InvalidPassword";
  /** The rule the password broke. */
  rule: "missing" | "too-short" | "too-long" = "missing";
}

/** The current password given to change it is wrong. Nothing changed; the attempt counts toward the account's limit. */
export class IncorrectPassword extends AuthError {
  static override type: ErrorType = "IncorrectPassword";
  static override status: number | undefined = 403;
}

/**
 * The signed-in user has no password to change: they signed up with a provider, an email link or a
 * passkey. Set one with "forgot password" (a link to their proven address). Nothing changed.
 */
export class PasswordNotSet extends AuthError {
  static override type: ErrorType = "PasswordNotSet";
}

/** The name given at sign-up is not one line of at most 64 characters. Nothing changed. */
export class InvalidName extends AuthError {
  static override type: ErrorType = "InvalidName";
  static override status: number | undefined = 400;
}

/**
 * The operation changes how the user signs in (a passkey, the address, the password, a linked account, a
 * second factor), ends other sessions or deletes the account, and needs its owner present now: a sign-in
 * in the last `ownerPresent.maxAge` seconds (default 10 minutes), at level 2 when the user has a second
 * factor, or the current password. Sign in again (the built-in pages send the browser there and back) and
 * repeat the operation. Also `auth.api.requireRecentAuth`'s refusal. Nothing changed.
 */
export class RecentSignInRequired extends AuthError {
  static override type: ErrorType = "RecentSignInRequired";
  static override status: number | undefined = 403;
  /** The age the sign-in may have, in seconds. */
  declare maxAge?: number;
  /** The assurance level the operation needs (2: a second factor). */
  declare aal?: 1 | 2;
  /** The owner-present operation that was refused (`addPasskey`, `changeEmail`, …); absent for `requireRecentAuth`. */
  declare operation?: string;
}

/**
 * An admin's impersonation was refused (docs/admin.md, "Impersonation"): starting one (`reason`: `self`,
 * `unknownUser`, `admin` without `allowAdmins`, `off` with `impersonation: false`, `banned`, or
 * `impersonating` from a session that is already impersonated), or an operation an impersonated session may
 * never run: every owner-present one (`ownerPresent`, with `operation`: changing how the user signs in,
 * ending their other sessions, deleting the account). Nothing changed. HTTP 403.
 */
export class ImpersonationForbidden extends AuthError {
  static override type: ErrorType = "ImpersonationForbidden";
  static override status: number | undefined = 403;
  /** Why: `ownerPresent`, `self`, `unknownUser`, `admin`, `off`, `banned`, `impersonating`, `notImpersonating`. */
  declare reason?: string;
  /** The owner-present operation that was refused (`changePassword`, `addPasskey`, …), for `reason: "ownerPresent"`. */
  declare operation?: string;
}

// The second factor's error types (its classes below), added to the shared list.
declare module "./types/errors.js" {
  interface FeatureErrorTypes {
    TwoFactorExpired: true;
    TwoFactorAlreadyEnabled: true;
    TwoFactorNotEnabled: true;
  }
}

/**
 * The second step of a sign-in has nothing to complete: no sign-in waits for it in this browser (it was
 * started in another one, or waited longer than `twoFactor.pendingMaxAge`, or had 5 wrong codes). Sign
 * in again. Nothing changed.
 */
export class TwoFactorExpired extends SignInError {
  static override type: ErrorType = "TwoFactorExpired";
}

/** `enrollTotp`: the user has TOTP on already; turn it off first to set up another app. Nothing changed. */
export class TwoFactorAlreadyEnabled extends AuthError {
  static override type: ErrorType = "TwoFactorAlreadyEnabled";
  static override status: number | undefined = 409;
}

/** `confirmTotp` without `enrollTotp` first, or `disableTotp` for a user without TOTP. Nothing changed. */
export class TwoFactorNotEnabled extends AuthError {
  static override type: ErrorType = "TwoFactorNotEnabled";
  static override status: number | undefined = 409;
}

/**
 * The code typed is not the one mailed (or is not 6 to 8 digits). Each mail's code dies after 5 wrong
 * tries, and its link with it; the limits on tries per address and per client apply too.
 */
export class IncorrectCode extends AuthError {
  static override type: ErrorType = "IncorrectCode";
  static override status: number | undefined = 400;
}

/**
 * A single-use link was used already (the revert link of an email change): nothing changed this time.
 * The first use made the change; sign in, or ask for a new password by email.
 */
export class LinkAlreadyUsed extends AuthError {
  static override type: ErrorType = "LinkAlreadyUsed";
}

/** Error types whose name may be shown to the user; every other error is reported as `Configuration`. */
const clientSafeTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "AccessDenied",
  "Verification",
  "LinkAlreadyUsed",
  "MissingCSRF",
  "AccountNotLinked",
  "WebAuthnVerificationError",
  "EmailSignInError",
  "OAuthSignInError",
  "RateLimited",
  "ProviderResponseTooLarge",
  "InvalidIdTokenClaim",
  "UnsupportedTokenType",
  "SessionRequired",
  "SessionNotFound",
  "InvalidSessionId",
  "AccountNotFound",
  "InvalidAccount",
  "LastSignInMethod",
  "PasskeyNotFound",
  "InvalidPassword",
  "IncorrectPassword",
  "PasswordNotSet",
  "InvalidName",
  "RecentSignInRequired",
  "ImpersonationForbidden",
  "IncorrectCode",
  "TwoFactorExpired",
  "TwoFactorAlreadyEnabled",
  "TwoFactorNotEnabled",
  "OAuthError",
  "UserBanned",
  "UserNotFound",
  "InvalidUser",
  "UserExists",
  "SsoRequired",
  "SsoSignInFailed",
]);

/** True when the error's type may be shown to the user (on the error or sign-in page). */
export function isClientSafeError(error: unknown): error is AuthError {
  return error instanceof AuthError && clientSafeTypes.has(error.type);
}

/**
 * No organization has this id or slug, or the caller is not one of its members: the two answers are the
 * same, so that a caller cannot learn which organizations exist. HTTP 404.
 */
export class OrganizationNotFound extends AuthError {
  static override type: ErrorType = "OrganizationNotFound";
  static override status: number | undefined = 404;
}

/** The caller is a member, but their role does not grant what the operation needs. Nothing changed. HTTP 403. */
export class OrganizationForbidden extends AuthError {
  static override type: ErrorType = "OrganizationForbidden";
  static override status: number | undefined = 403;
  /** The permission the operation needs (`"member:remove"`, the app's `"invoice:approve"`). */
  declare permission?: string;
}

/**
 * The session does not meet the organization's sign-in policy (a second factor, a sign-in method, a sign-in
 * recent enough): `missing` says what it lacks, `stepUp` where to sign in again and come back. Nothing
 * changed. HTTP 403.
 */
export class OrganizationPolicy extends AuthError {
  static override type: ErrorType = "OrganizationPolicy";
  static override status: number | undefined = 403;
  /** What the session lacks: `"secondFactor"`, `"signInMethod"`, `"recentSignIn"`. */
  declare missing?: Array<"secondFactor" | "signInMethod" | "recentSignIn">;
  /** The sign-in page that steps up and returns to the page the request came from. */
  declare stepUp?: string;
}

/** A name, slug, role, email, domain or policy given to an organization operation is not valid. HTTP 400. */
export class InvalidOrganization extends AuthError {
  static override type: ErrorType = "InvalidOrganization";
  static override status: number | undefined = 400;
}

/** Another organization has this slug (or this verified domain is another organization's). HTTP 409. */
export class SlugTaken extends AuthError {
  static override type: ErrorType = "SlugTaken";
  static override status: number | undefined = 409;
}

/** The organization's last owner cannot leave, be removed or lose the role: make another owner first. HTTP 409. */
export class LastOwner extends AuthError {
  static override type: ErrorType = "LastOwner";
  static override status: number | undefined = 409;
}

/**
 * The invitation cannot be accepted: unknown, used, revoked, expired, or for another address (which it does
 * not say). HTTP 400.
 */
export class InvitationInvalid extends AuthError {
  static override type: ErrorType = "InvitationInvalid";
  static override status: number | undefined = 400;
}

/** Another organization has proven this domain: a domain is proven by one organization at a time. HTTP 409. */
export class DomainClaimed extends AuthError {
  static override type: ErrorType = "DomainClaimed";
  static override status: number | undefined = 409;
}

/** The domain's TXT record (`_authlib-challenge.<domain>`) does not hold the organization's token. HTTP 409. */
export class DomainNotProven extends AuthError {
  static override type: ErrorType = "DomainNotProven";
  static override status: number | undefined = 409;
}

/** The user created as many organizations as `organizations.maxPerUser`, or too many invitations wait. HTTP 429. */
export class OrganizationLimit extends AuthError {
  static override type: ErrorType = "OrganizationLimit";
  static override status: number | undefined = 429;
}

/**
 * A request to the authorization server (`authorizationServer`) was refused, as its RFC names the refusal:
 * `code` is the OAuth error code (`invalid_request`, `invalid_grant`, `invalid_client`, …), `description`
 * what a client's developer may read (never a secret, never why a secret was wrong). The token, revocation,
 * introspection and registration endpoints answer it as `{ error, error_description }` with `status`.
 */
export class OAuthError extends AuthError {
  static override type: ErrorType = "OAuthError";
  static override status: number | undefined = 400;
  /** The RFC's error code. */
  declare code: string;
  /** What went wrong, for the client's developer. */
  description: string;

  constructor(code: string, description: string, status = 400) {
    super(`${code}: ${description}`);
    this.code = code;
    this.description = description;
    this.status = status;
  }
}

/**
 * A request's API key is refused (`apiKeys`, docs/api-keys.md): no key, not the app's format, a wrong
 * checksum, an unknown id or a wrong secret (one answer for both), revoked, rotated out, expired, its owner
 * suspended, or an organization key whose creator left or lost a permission it carries. HTTP 401.
 */
export class InvalidApiKey extends AuthError {
  static override type: ErrorType = "InvalidApiKey";
  static override status: number | undefined = 401;
}

/** The API key is valid but does not carry every scope the request needs (`scopes` names them). HTTP 403. */
export class ApiKeyScopeExceeded extends AuthError {
  static override type: ErrorType = "ApiKeyScopeExceeded";
  static override status: number | undefined = 403;
  /** The scopes the request needs. */
  declare scopes?: string[];
}

/** No key of the caller's (or of the organization) has this id, or it is revoked already. Nothing changed. HTTP 404. */
export class ApiKeyNotFound extends AuthError {
  static override type: ErrorType = "ApiKeyNotFound";
  static override status: number | undefined = 404;
}

/**
 * A new key's name, scopes or lifetime is not allowed (a scope the app did not declare, or one the member's
 * role does not grant; a lifetime past `maxExpiresIn`), or the holder has `maxPerUser` live keys. HTTP 400.
 */
export class InvalidApiKeyRequest extends AuthError {
  static override type: ErrorType = "InvalidApiKeyRequest";
  static override status: number | undefined = 400;
}

/**
 * An admin banned this user (`banUser`): every sign-in is refused, whatever the method, until the ban
 * ends or an admin lifts it. The sign-in page shows `admin.banMessage` (or the built-in text). HTTP 403.
 */
export class UserBanned extends SignInError {
  static override type: ErrorType = "UserBanned";
  static override status: number | undefined = 403;
}

/** An admin operation named a user the store does not have. Nothing changed. HTTP 404. */
export class UserNotFound extends AuthError {
  static override type: ErrorType = "UserNotFound";
  static override status: number | undefined = 404;
}

/** An admin operation's input is not valid (an address, a name, a role, a duration, a cursor): the message names the field. Nothing changed. HTTP 400. */
export class InvalidUser extends AuthError {
  static override type: ErrorType = "InvalidUser";
  static override status: number | undefined = 400;
}

/** `createUser` or `updateUser`: another user has this address already. Nothing changed. HTTP 409. */
export class UserExists extends AuthError {
  static override type: ErrorType = "UserExists";
  static override status: number | undefined = 409;
}

// Enterprise SSO's error types (its classes below), added to the shared list.
declare module "./types/errors.js" {
  interface FeatureErrorTypes {
    SsoConnectionNotFound: true;
    InvalidSsoConnection: true;
    SsoRequired: true;
    SsoSignInFailed: true;
  }
}

/**
 * No connection of an organization the caller manages has this id (or it was deleted). Said the same
 * whether the connection exists in another organization or not. Nothing changed. HTTP 404.
 */
export class SsoConnectionNotFound extends AuthError {
  static override type: ErrorType = "SsoConnectionNotFound";
  static override status: number | undefined = 404;
}

/**
 * A connection's settings are not valid (an issuer that is not https, a role the organization does not
 * have, a certificate that is not one): the message names the field. Nothing changed. HTTP 400.
 */
export class InvalidSsoConnection extends AuthError {
  static override type: ErrorType = "InvalidSsoConnection";
  static override status: number | undefined = 400;
}

/**
 * The address is at a domain whose organization requires its SSO (`ssoRequired`): every other way in is
 * refused for it. Sign in with the organization's SSO ("Continue with SSO" on the sign-in page). HTTP 403.
 */
export class SsoRequired extends SignInError {
  static override type: ErrorType = "SsoRequired";
  static override status: number | undefined = 403;
}

/**
 * A sign-in through an SSO connection could not complete: the identity provider's answer was refused
 * (`reason` says why, never the answer itself), or the connection is gone. Start the sign-in again; if it
 * keeps failing, the organization's admin checks the connection. HTTP 403.
 */
export class SsoSignInFailed extends SignInError {
  static override type: ErrorType = "SsoSignInFailed";
  static override status: number | undefined = 403;
  /** Why, as a type (`noSubject`, `connectionGone`, `organizationGone`, `provider`). */
  declare reason?: string;
}

/**
 * The `sso` option cannot be used as given: SSO connections belong to organizations, so `sso` needs
 * `organizations` turned on; or a value is out of range (the message names it). Thrown by `createAuth`.
 */
export class InvalidSsoConfig extends AuthError {
  static override type: ErrorType = "InvalidSsoConfig";
}

/**
 * A SAML response from a connection's identity provider is refused (issue 49): `reason` says which check it
 * failed, for the audit row. The message never contains the response or the assertion. Nothing signed in:
 * start the sign-in again from the application. HTTP 400.
 */
export class SamlResponseRejected extends AuthError {
  static override type: ErrorType = "SamlResponseRejected";
  static override status: number | undefined = 400;
  /** Which check the response failed. */
  reason: SamlRejectionReason;

  constructor(reason: SamlRejectionReason, message: string, errorOptions?: ErrorOptions) {
    super(message, errorOptions);
    this.reason = reason;
  }
}

/**
 * An identity provider's SAML metadata cannot be used: not XML, no IdP descriptor, no HTTP-Redirect single
 * sign-on URL, or no signing certificate; or its URL (`saml.metadataUrl`) could not be fetched safely (a
 * non-public address, a redirect, too large, too slow, not XML: the message says which). Ask the customer's
 * IT admin for the IdP's metadata document. HTTP 400.
 */
export class InvalidIdpMetadata extends AuthError {
  static override type: ErrorType = "InvalidIdpMetadata";
  static override status: number | undefined = 400;
}

/**
 * A SAML connection is used but `@node-saml/node-saml` (an optional peer dependency) is not installed: run
 * `npm install @node-saml/node-saml`. The operator's error (answered as a 500 that names no detail).
 */
export class SamlLibraryMissing extends AuthError {
  static override type: ErrorType = "SamlLibraryMissing";
}

// SCIM provisioning's error types (its classes below), added to the shared list.
declare module "./types/errors.js" {
  interface FeatureErrorTypes {
    ScimUnauthorized: true;
    ScimInvalidRequest: true;
    ScimResourceNotFound: true;
    ScimConflict: true;
    ScimForbidden: true;
    ScimPreconditionFailed: true;
    ScimTokenNotFound: true;
  }
}

/**
 * A SCIM request without a live token of an organization: no `Authorization: Bearer` header, one that is not
 * a SCIM token, or a token that is unknown, revoked or rotated out. Create a token on the organization's page
 * (or `auth.api.createScimToken`) and give it to the identity provider. Nothing changed. HTTP 401.
 */
export class ScimUnauthorized extends AuthError {
  static override type: ErrorType = "ScimUnauthorized";
  static override status: number | undefined = 401;
}

/**
 * A SCIM request that cannot be done as sent (RFC 7644 §3.12): `scimType` says why (`invalidFilter`,
 * `invalidSyntax`, `invalidPath`, `invalidValue`, `noTarget`, `mutability`, `tooMany`, `uniqueness` is
 * {@link ScimConflict}'s). Fix the request. Nothing changed. HTTP 400.
 */
export class ScimInvalidRequest extends AuthError {
  static override type: ErrorType = "ScimInvalidRequest";
  static override status: number | undefined = 400;
  /** The SCIM error's `scimType` (RFC 7644 Table 9). */
  declare scimType?: string;
}

/** The organization's directory has no user or group with this id (another organization's is not found either). HTTP 404. */
export class ScimResourceNotFound extends AuthError {
  static override type: ErrorType = "ScimResourceNotFound";
  static override status: number | undefined = 404;
}

/** A user's `userName` or a group's `displayName` is taken in the organization's directory (`scimType: uniqueness`). Nothing changed. HTTP 409. */
export class ScimConflict extends AuthError {
  static override type: ErrorType = "ScimConflict";
  static override status: number | undefined = 409;
}

/**
 * A SCIM change the directory may not make: the organization's owner is managed in authlib, not by the
 * identity provider (their role, their deprovisioning). Nothing changed. HTTP 403.
 */
export class ScimForbidden extends AuthError {
  static override type: ErrorType = "ScimForbidden";
  static override status: number | undefined = 403;
}

/** `If-Match` named a version the resource no longer has (RFC 7644 §3.14): read it again. Nothing changed. HTTP 412. */
export class ScimPreconditionFailed extends AuthError {
  static override type: ErrorType = "ScimPreconditionFailed";
  static override status: number | undefined = 412;
}

/** `revokeScimToken`: the organization has no live SCIM token with this id. Nothing changed. HTTP 404. */
export class ScimTokenNotFound extends AuthError {
  static override type: ErrorType = "ScimTokenNotFound";
  static override status: number | undefined = 404;
}
