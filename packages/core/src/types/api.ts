/**
 * The shapes of `auth.api` (`kernel/api.ts`): what each operation takes and answers. The app's own
 * server code and framework integrations call them in process (docs/architecture.md).
 *
 * @module types/api
 */

import type { Session } from "./config.js";
import type { Cookie } from "./internal.js";
import type { LinkedAccount, UnlinkAccountInput } from "./linked-accounts.js";
import type {
  DomainRecheck,
  ListedDomain,
  ListedInvitation,
  ListedMember,
  Member,
  Organization,
  OrganizationChanges,
  OrganizationMembership,
  Permission,
} from "./organizations.js";
import type { ListedPasskey, RemovePasskeyInput, RenamePasskeyInput } from "./passkeys.js";
import type { ListedSession } from "./session-registry.js";

/**
 * The request an operation is made for: the `Request` itself, or its headers (the `Cookie` header carries
 * the session; `Origin`, `Sec-Fetch-Site`, `Host` and `X-Forwarded-*` are read as for any request) with
 * the URL it came to when known. Without `url`, the origin is the configuration's `url` (`AUTHLIB_URL`),
 * else the `Host` header's, over http: pass `url` (or the `Request`) when the app is served over https.
 */
export type RequestLike =
  | Request
  | {
      /** The request's headers. */
      headers: HeadersInit;
      /** The URL the request came to (any path: only its origin is used). */
      url?: string | URL;
      /** The address of the connection the request came on: the per-client rate limits count by it. */
      clientAddress?: string;
    };

/** Where to send the browser after an operation, and the cookies to set. */
export interface RedirectResult {
  /** An absolute URL: the provider's authorization URL, the verify-request page, or where the user wanted to go. */
  redirect: string;
  /** Cookies to set, in order: the session cookie after a sign-in, the flow's check cookies, … */
  cookies: Cookie[];
}

/** What `auth.api.requireRecentAuth` asks for. */
export interface RecentAuthInput {
  /** The age the sign-in may have, in seconds. */
  maxAge: number;
  /** The assurance level needed: 2 asks for a sign-in with a second factor (or a passkey). Default 1. */
  aal?: 1 | 2;
}

/** The session of a request, and the cookies to set on the response (a refreshed or cleared session cookie). */
export interface SessionResult {
  /** The session, or `null` when nobody is signed in (or the session cookie is invalid or expired). */
  session: Session | null;
  /** Cookies to set, in order (a `maxAge` of 0 deletes one). */
  cookies: Cookie[];
}

/** What {@link AuthApi.signIn} takes: the provider, and the fields that provider reads. */
export interface SignInInput {
  /** The id of a configured provider (`"github"`, `"credentials"`, `"nodemailer"`, `"passkey"`, …). */
  providerId: string;
  /** Where to send the user after signing in. Same-origin only (the `redirect` callback decides). Default: the app's root. */
  redirectTo?: string;
  /** OAuth/OIDC only: link the provider's account to the signed-in user (refused with `OAuthAccountNotLinked` when nobody is). */
  link?: boolean;
  /** OAuth/OIDC only: extra parameters of the authorization request, e.g. `{ prompt: "login" }`. */
  authorizationParams?: Record<string, string>;
  /**
   * The fields the provider reads: `email` for an email provider; the declared credentials for a
   * credentials provider (e.g. `email`, `password`); the WebAuthn response fields for a passkey provider.
   */
  [field: string]: unknown;
}

/** What {@link AuthApi.signInWithEmailCode} takes. */
export interface EmailCodeInput {
  /** The code from the mail, as typed (spaces and dashes are ignored). */
  code: string;
  /** The email provider's id. Default: the configured email provider. */
  providerId?: string;
  /** Where to send the user after signing in. Same-origin only. Default: where the mail was asked to lead. */
  redirectTo?: string;
}

/** What {@link AuthApi.signOut} takes. */
export interface SignOutInput {
  /** Where to send the user after signing out. Same-origin only. Default: the app's root. */
  redirectTo?: string;
}

/** What the revoking operations answer. */
export interface RevokeResult {
  /** How many sessions ended. */
  revoked: number;
  /** Cookies to set: the cleared session cookie when the caller's own session ended, else none. */
  cookies: Cookie[];
}

/** What {@link AuthApi.revokeUserSessions} takes. */
export interface RevokeUserSessionsInput {
  /** The user whose sessions end. */
  userId: string;
  /** A session id to keep (e.g. the one that just changed the password). */
  except?: string;
}

/** What {@link AuthApi.signUp} takes (the `Password()` provider). */
export interface SignUpInput {
  email: string;
  password: string;
  /** The user's name (optional, one line, at most 64 characters). */
  name?: string;
  /** Where the verification link signs the user in to. Same-origin only. Default: the app's root. */
  redirectTo?: string;
}

/** What {@link AuthApi.requestPasswordReset} takes. */
export interface PasswordResetRequestInput {
  email: string;
  /** Where the reset link signs the user in to. Same-origin only. Default: the app's root. */
  redirectTo?: string;
}

/** What {@link AuthApi.resetPassword} takes: the token of the reset link, and the new password. */
export interface ResetPasswordInput {
  token: string;
  password: string;
}

/** What {@link AuthApi.changePassword} takes. */
export interface ChangePasswordInput {
  currentPassword: string;
  password: string;
  /** Where to go afterwards (answered as `redirect`). Default: the app's root. */
  redirectTo?: string;
}

/** What {@link AuthApi.run} answers: the operation's result as data. */
export interface OperationResult {
  /** The operation's data (a JSON route's body), when it answers data. */
  body?: unknown;
  /** An absolute URL to send the browser to, when it answers a redirect. */
  redirect?: string;
  /** Cookies to set, in order. */
  cookies: Cookie[];
}

/** The in-process operations of an instance (see the module comment). */
export interface AuthApi extends OrganizationsApi {
  /**
   * Runs any operation of the instance by its name, an app feature's included (`config.features`,
   * docs/architecture.md): `input` is its form (a POST) or its query (a GET), and the same checks run as
   * over HTTP (CSRF as for every operation here, session, owner present). Throws the operation's typed error.
   */
  run(request: RequestLike, operation: string, input?: Record<string, unknown>): Promise<OperationResult>;
  /**
   * The session of `request`, read through the session strategy (JWT or database) like
   * `GET <basePath>/session`, with the cookies to set. Throws `UntrustedHost` for a host the trusted-host
   * list refuses; an unreadable session is `null`, not an error.
   */
  getSession(request: RequestLike): Promise<SessionResult>;
  /**
   * Signs in with `input.providerId`: an OAuth/OIDC provider answers the authorization URL to redirect
   * to (with the flow's check cookies); an email provider sends the sign-in mail and answers the
   * verify-request page; credentials and passkeys are checked and answer `redirectTo` with the session
   * cookie. Throws `InvalidProvider`, `CredentialsSignin`, `RateLimited`, `AccessDenied`, … (typed).
   */
  signIn(request: RequestLike, input: SignInInput): Promise<RedirectResult>;
  /**
   * Signs in with the one-time code of a sign-in mail, typed in the browser that asked for the mail (the
   * request carries its flow cookie). The mail's link stops working. `providerId`: the email provider
   * (default: the configured one). Throws `IncorrectCode` (5 wrong codes spend the mail), `Verification`
   * (used, expired, too many wrong codes, or asked for in another browser), `RateLimited`, `MissingCSRF`.
   */
  signInWithEmailCode(request: RequestLike, input: EmailCodeInput): Promise<RedirectResult>;
  /** Ends the session of `request` (its database row too) and answers the cookies that clear it. */
  signOut(request: RequestLike, input?: SignOutInput): Promise<RedirectResult>;
  /**
   * The signed-in user's sessions (their devices), most recently seen first, the request's own marked
   * `current`. Throws `SessionRequired` when nobody is signed in, `SessionRegistryMissing` when this
   * configuration cannot list sessions (docs/sessions.md).
   */
  listSessions(request: RequestLike): Promise<ListedSession[]>;
  /**
   * Ends one of the signed-in user's sessions. Ending the request's own clears its cookie (in `cookies`).
   * Throws `SessionNotFound` for an id that is not one of the caller's live sessions (another user's
   * included: nothing changes), `InvalidSessionId`, `SessionRequired`, `MissingCSRF` (cross-site).
   */
  revokeSession(request: RequestLike, input: { sessionId: string }): Promise<RevokeResult>;
  /** Ends every session of the signed-in user but the request's own ("sign out everywhere else"). */
  revokeOtherSessions(request: RequestLike): Promise<RevokeResult>;
  /**
   * For server code (after a password change, by an admin): ends every session of `userId` but `except`.
   * No request and no CSRF check: never call it with a user id taken from a request unchecked.
   */
  revokeUserSessions(input: RevokeUserSessionsInput): Promise<{ revoked: number }>;
  /**
   * The signed-in user's linked accounts (`provider`, `type`, `providerAccountId`; passkeys as `type:
   * "webauthn"`), never their tokens. Throws `SessionRequired` when nobody is signed in,
   * `AccountsUnavailable` without an adapter that can list them (docs/accounts.md).
   */
  listAccounts(request: RequestLike): Promise<LinkedAccount[]>;
  /**
   * Removes one of the signed-in user's accounts. Throws `LastSignInMethod` when it is their last way to
   * sign in, `AccountNotFound` for an account that is not theirs (another user's included: nothing
   * changes), `InvalidAccount` (not named, or a passkey), `SessionRequired`, `MissingCSRF` (cross-site).
   */
  unlinkAccount(request: RequestLike, input: UnlinkAccountInput): Promise<{ unlinked: number }>;
  /**
   * The signed-in user's passkeys, oldest first: `id`, `name`, `createdAt`, `lastUsedAt`, `deviceType`,
   * `backedUp`; never a public key or counter. Throws `SessionRequired` when nobody is signed in,
   * `MissingAdapterMethods` when the adapter cannot manage passkeys (`updateAuthenticator`,
   * `deleteAuthenticator`), `UnknownAction` without a passkey provider (docs/passkeys.md).
   */
  listPasskeys(request: RequestLike): Promise<ListedPasskey[]>;
  /**
   * Renames one of the signed-in user's passkeys and answers it as listed. Throws `InvalidName` (blank,
   * over 64 characters, not one line), `PasskeyNotFound` for an id that is not one of the caller's
   * passkeys (another user's included: nothing changes), `SessionRequired`, `MissingCSRF` (cross-site).
   */
  renamePasskey(request: RequestLike, input: RenamePasskeyInput): Promise<ListedPasskey>;
  /**
   * Removes one of the signed-in user's passkeys: it no longer signs in. The owner must be present (a
   * sign-in in the last `ownerPresent.maxAge` seconds, at level 2 for a user with a second factor, or
   * `currentPassword`). Throws `RecentSignInRequired`, `LastSignInMethod` when it is their last way to
   * sign in, `PasskeyNotFound` for an id that is not one of theirs (another user's included),
   * `SessionRequired`, `MissingCSRF` (cross-site).
   */
  removePasskey(request: RequestLike, input: RemovePasskeyInput & { currentPassword?: string }): Promise<{ removed: number }>;
  /**
   * `Password()` sign-up: mails a verification link to `email`, or, when the address has an account,
   * tells its owner so (the answer is the same: the verify-request page). Nothing is stored until the
   * link is followed. Throws `InvalidPassword` (with its `rule`), `InvalidName`, `EmailSignInError` (a bad
   * address, or the mail could not be sent), `RateLimited`, `MissingCSRF` (cross-site).
   */
  signUp(request: RequestLike, input: SignUpInput): Promise<RedirectResult>;
  /**
   * Redeems a sign-up link's `token`: creates the account and signs in (the session cookie in `cookies`)
   * when this browser asked for the link; from another browser the address is confirmed and nobody is
   * signed in. Throws `Verification` for a link that is not valid, expired or used.
   */
  verifyEmail(request: RequestLike, input: { token: string }): Promise<RedirectResult>;
  /**
   * Mails a password-reset link to `email` (bound to this browser), or, when it has no account, says
   * so to the address; the answer is the same. Throws `EmailSignInError`, `RateLimited`, `MissingCSRF`.
   */
  requestPasswordReset(request: RequestLike, input: PasswordResetRequestInput): Promise<RedirectResult>;
  /**
   * Sets a new password with a reset link's `token` (in the browser that asked for it), ends every
   * session of the user and signs this browser in. Throws `Verification` (not valid, expired, used, another
   * browser, or the password changed since), `InvalidPassword`.
   */
  resetPassword(request: RequestLike, input: ResetPasswordInput): Promise<RedirectResult>;
  /**
   * For a reset link's `token` opened in a browser other than the one that asked for it (`resetPassword`
   * refuses it there): mails a new reset link to the account's address, bound to this browser
   * (docs/password.md). Throws `Verification` (not valid, expired, used, or the password changed since),
   * `EmailSignInError`, `RateLimited`, `MissingCSRF`.
   */
  resendPasswordReset(request: RequestLike, input: { token: string }): Promise<RedirectResult>;
  /**
   * Changes the signed-in user's password: ends their other sessions (this one is renewed: apply
   * `cookies`). Throws `SessionRequired`, `PasswordNotSet`, `IncorrectPassword`, `InvalidPassword`,
   * `RateLimited`, `MissingCSRF`.
   */
  changePassword(request: RequestLike, input: ChangePasswordInput): Promise<RedirectResult>;
  /**
   * Asks to change the signed-in user's email address to `email`: a link goes to the new address (or,
   * when it is another account's, a note), and the address changes once the link is confirmed by this
   * user ({@link AuthApi.confirmEmail}); the previous address is told. The answer is the same either way.
   * Throws `SessionRequired`, `EmailSignInError` (a bad address, or the mail could not be sent),
   * `RateLimited`, `MissingCSRF`.
   */
  changeEmail(request: RequestLike, input: { email: string; redirectTo?: string }): Promise<RedirectResult>;
  /** {@link AuthApi.changeEmail} for a user without an address (a passkey or OAuth user): the same operation. */
  addEmail(request: RequestLike, input: { email: string; redirectTo?: string }): Promise<RedirectResult>;
  /**
   * Confirms an email-change link's `token` for the signed-in user who asked for it. Throws `Verification`
   * (not valid, expired, used, another user's, or the address was proven by another account since),
   * `SessionRequired`.
   */
  confirmEmail(request: RequestLike, input: { token: string }): Promise<RedirectResult>;
  /**
   * Deletes the signed-in user's account (user, accounts, sessions, passkeys) and clears the session
   * cookie (in `cookies`). Needs `currentPassword` when the user has a password, else a sign-in in the
   * last 10 minutes. Throws `IncorrectPassword`, `RecentSignInRequired`, `SessionRequired`, `MissingCSRF`.
   */
  deleteAccount(request: RequestLike, input?: { currentPassword?: string; redirectTo?: string }): Promise<RedirectResult>;
}

/**
 * The organization operations (part of `AuthApi`; docs/organizations.md). Each decides from the store on
 * this request: a caller who is not a member gets `OrganizationNotFound`; a role that does not grant the
 * operation, `OrganizationForbidden`; a session short of the organization's policy, `OrganizationPolicy`.
 */
export interface OrganizationsApi {
  /** A new organization; the caller is its owner. Throws `SlugTaken`, `OrganizationLimit`, `InvalidOrganization`. */
  createOrganization(request: RequestLike, input: { name: string; slug: string }): Promise<OrganizationMembership>;
  /** Changes the name, slug, policy or domain join (`organization:update`). */
  updateOrganization(request: RequestLike, input: { organizationId: string } & OrganizationChanges): Promise<Organization>;
  /** Deletes the organization with its members, invitations and domains (owners: `organization:delete`). */
  deleteOrganization(request: RequestLike, input: { organizationId: string }): Promise<void>;
  /** The caller's organizations with their roles, and those their address's proven domain offers. */
  listOrganizations(request: RequestLike): Promise<{ organizations: OrganizationMembership[]; suggested: Organization[] }>;
  /** One of the caller's organizations, with their role there. */
  getOrganization(request: RequestLike, input: { organizationId: string }): Promise<OrganizationMembership>;
  /** Joins an organization the caller's proven address's domain offers (`domainJoin: "suggest"` or `"auto"`). */
  joinOrganization(request: RequestLike, input: { organizationId: string }): Promise<{ organizationId: string; role: string }>;
  /** The organization's members, with their names and addresses (any member may list them). */
  listMembers(request: RequestLike, input: { organizationId: string }): Promise<ListedMember[]>;
  /** Another member's new role: never above the caller's own; the last owner keeps theirs (`LastOwner`). */
  updateMemberRole(request: RequestLike, input: { organizationId: string; userId: string; role: string }): Promise<Member>;
  /** Removes a member whose role grants no more than the caller's (an admin cannot remove an owner). */
  removeMember(request: RequestLike, input: { organizationId: string; userId: string }): Promise<void>;
  /** The caller leaves (the last owner cannot: `LastOwner`). */
  leaveOrganization(request: RequestLike, input: { organizationId: string }): Promise<{ cookies: Cookie[] }>;
  /** Invites `email` with `role` (mailed through the app's email provider); answers the invitation. */
  inviteMember(request: RequestLike, input: { organizationId: string; email: string; role: string }): Promise<ListedInvitation>;
  /** The organization's waiting invitations, without their tokens (`member:invite`). */
  listInvitations(request: RequestLike, input: { organizationId: string }): Promise<ListedInvitation[]>;
  /** A waiting invitation of the organization stops working (`member:invite`). Throws `InvitationInvalid`. */
  revokeInvitation(request: RequestLike, input: { organizationId: string; invitationId: string }): Promise<void>;
  /** Accepts an invitation as the signed-in user, who must have the invited address. Throws `InvitationInvalid`. */
  acceptInvitation(request: RequestLike, input: { invitationId: string; token: string }): Promise<{ organizationId: string; role: string }>;
  /** The organization's domains, each with the TXT record to publish (`domain:manage`). */
  listDomains(request: RequestLike, input: { organizationId: string }): Promise<ListedDomain[]>;
  /** Claims a domain: answers the TXT record to publish at `_authlib-challenge.<domain>`. */
  addDomain(request: RequestLike, input: { organizationId: string; domain: string }): Promise<ListedDomain>;
  /** Reads the TXT record now: proven, or `DomainNotProven`; `DomainClaimed` when another organization proved it. */
  verifyDomain(request: RequestLike, input: { organizationId: string; domainId: string }): Promise<ListedDomain>;
  /** Removes the organization's claim of a domain, and its proof with it (`domain:manage`). */
  removeDomain(request: RequestLike, input: { organizationId: string; domainId: string }): Promise<void>;
  /**
   * For server code (a scheduled job; `authlib org verify-domains`): reads the TXT record of every proven
   * domain again; a domain whose record is gone loses its proof (`domainUnverified` event). A lookup that
   * fails keeps the proof and is listed in `failed`. No request and no CSRF check. Throws `UnknownAction`
   * when organizations are off.
   */
  verifyDomains(): Promise<DomainRecheck>;
  /** The session's active organization (`null`: none), after a membership and policy check; answers the cookies to set. */
  setActiveOrganization(
    request: RequestLike,
    input: { organizationId: string | null },
  ): Promise<{ activeOrganizationId: string | null; role?: string } & { cookies: Cookie[] }>;
  /**
   * Whether the caller's role in `organizationId` (default: the active organization) grants `permission`:
   * `false` for a non-member. Throws `OrganizationPolicy` when the session is short of the organization's policy.
   */
  hasPermission(request: RequestLike, input: { organizationId?: string; permission: Permission }): Promise<boolean>;
}
