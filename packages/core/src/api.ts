/**
 * `auth.api`: the operations of an instance for the app's own server code and for framework
 * integrations, in process. Each takes the incoming request (or any object with its headers) and its
 * arguments, runs the same pipeline as the HTTP surface (`pipeline.ts`) and returns data; a failure is
 * thrown as a typed `AuthError` (logged already), carrying the cookies it must still set
 * (`failureCookies` of `@authlib/core/integration`). No operation is addressed by a URL path or a
 * form-field string.
 *
 * CSRF: an operation has no form to carry a token, because the app's own code calls it. It is refused
 * (`MissingCSRF`) when the browser says the request came from another site (`Sec-Fetch-Site:
 * cross-site`, or an `Origin` that is not the app's), so calling it from a route that a cross-site form
 * can reach does not make that route a CSRF hole.
 *
 * @module api
 */
import { inProcessRequest, type RedirectResult, type RequestLike, redirectOf } from "./api-request.js";
import { createTwoFactorApi, type TwoFactorApi } from "./api-two-factor.js";
import { InvalidProvider, InvalidSessionId } from "./errors.js";
import type { Cookie } from "./http/cookies.js";
import { asAuthError } from "./http/error-response.js";
import type { AuthAction, RequestInternal } from "./internal-types.js";

export type { RedirectResult, RequestLike };

import type { LinkedAccount, UnlinkAccountInput } from "./linked-account-types.js";
import type { ListedPasskey, RemovePasskeyInput, RenamePasskeyInput } from "./passkey-types.js";
import { perform, readSession, type UsableAuth } from "./pipeline.js";
import { isSessionId, loadRegistry } from "./session/registry-of.js";
import type { ListedSession } from "./session-registry-types.js";
import type { Session } from "./types.js";

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

/** The in-process operations of an instance (see the module comment). */
export interface AuthApi extends TwoFactorApi {
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

/** The API of a usable resolved configuration. */
export function createApi(resolved: UsableAuth): AuthApi {
  const providerType = (id: string) => resolved.providers.find((p) => p.id === id)?.type;
  return {
    async getSession(request) {
      return readSession(resolved, inProcessRequest(resolved, request, { method: "GET", action: "session" }));
    },
    async signIn(request, input) {
      const { providerId, redirectTo, link, authorizationParams, ...fields } = input;
      const type = providerType(providerId);
      if (type === undefined) throw new InvalidProvider(`Unknown provider "${providerId}".`);
      // Credentials and passkeys are checked where their forms post: the callback.
      const action: AuthAction = type === "credentials" || type === "webauthn" ? "callback" : "signin";
      const body: Record<string, unknown> = { ...fields, callbackUrl: redirectTo ?? "/" };
      if (link) body.link = "true";
      const parsed = inProcessRequest(resolved, request, { method: "POST", action, providerId, body, query: authorizationParams });
      return redirectOf(await perform(resolved, parsed));
    },
    async signInWithEmailCode(request, input) {
      const { providerId, ...fields } = input ?? ({} as EmailCodeInput);
      const id = providerId ?? resolved.providers.find((p) => p.type === "email")?.id;
      if (id === undefined || providerType(id) !== "email")
        throw new InvalidProvider(`No email provider "${providerId ?? ""}" is configured.`);
      // Without `redirectTo`, where the sign-in was asked to lead (this browser's callback-URL cookie).
      const body = { code: fields.code, ...(fields.redirectTo ? { callbackUrl: fields.redirectTo } : {}) };
      return redirectOf(
        await perform(resolved, inProcessRequest(resolved, request, { method: "POST", action: "callback", providerId: id, body })),
      );
    },
    async signOut(request, input = {}) {
      const body = { callbackUrl: input.redirectTo ?? "/" };
      return redirectOf(await perform(resolved, inProcessRequest(resolved, request, { method: "POST", action: "signout", body })));
    },
    async listSessions(request) {
      const result = await perform(resolved, inProcessRequest(resolved, request, { method: "GET", action: "sessions" }));
      return (result.body as { sessions: ListedSession[] }).sessions;
    },
    async revokeSession(request, input) {
      return revokeResult(await perform(resolved, revokeRequest(resolved, request, { sessionId: input?.sessionId })));
    },
    async revokeOtherSessions(request) {
      return revokeResult(await perform(resolved, revokeRequest(resolved, request, { all: "others" })));
    },
    async revokeUserSessions(input) {
      const { userId, except } = input ?? ({} as RevokeUserSessionsInput);
      try {
        if (typeof userId !== "string" || userId === "") throw new InvalidSessionId("revokeUserSessions needs the user's id (`userId`).");
        if (except !== undefined && !isSessionId(except)) throw new InvalidSessionId("`except` is not a session id.");
        const ended = await (await loadRegistry()).revokeSessions(resolved.options, { userId, except, reason: "server" });
        return { revoked: ended.length };
      } catch (error) {
        const authError = asAuthError(error);
        resolved.logger.error(authError);
        throw authError;
      }
    },
    async listAccounts(request) {
      const result = await perform(resolved, inProcessRequest(resolved, request, { method: "GET", action: "accounts" }));
      return (result.body as { accounts: LinkedAccount[] }).accounts;
    },
    async unlinkAccount(request, input) {
      const body = { provider: input?.provider, providerAccountId: input?.providerAccountId };
      const parsed = inProcessRequest(resolved, request, { method: "POST", action: "accounts", providerId: "unlink", body });
      return (await perform(resolved, parsed)).body as { unlinked: number };
    },
    async listPasskeys(request) {
      const result = await perform(resolved, inProcessRequest(resolved, request, { method: "GET", action: "passkeys" }));
      return (result.body as { passkeys: ListedPasskey[] }).passkeys;
    },
    async renamePasskey(request, input) {
      const result = await perform(resolved, passkeyRequest(resolved, request, "rename", { id: input?.id, name: input?.name }));
      return (result.body as { passkey: ListedPasskey }).passkey;
    },
    async removePasskey(request, input) {
      const body = { id: input?.id, ...(input?.currentPassword === undefined ? {} : { currentPassword: input.currentPassword }) };
      return (await perform(resolved, passkeyRequest(resolved, request, "remove", body))).body as { removed: number };
    },
    signUp: (request, input) => password(request, "sign-up", input),
    verifyEmail: (request, input) => password(request, "verify", input),
    requestPasswordReset: (request, input) => password(request, "forgot", input),
    resetPassword: (request, input) => password(request, "reset", input),
    resendPasswordReset: (request, input) => password(request, "resend", input),
    changePassword: (request, input) => password(request, "change", input),
    changeEmail: (request, input) => account(request, "email", input),
    addEmail: (request, input) => account(request, "email", input),
    confirmEmail: (request, input) => account(request, "confirm-email", input),
    deleteAccount: (request, input) => account(request, "delete", input),
    ...createTwoFactorApi(resolved),
  };

  /** Runs `POST <action>/<form>` with `input` as its posted form (`redirectTo` as its `callbackUrl`). */
  async function post(action: AuthAction, request: RequestLike, form: string, input: object | undefined): Promise<RedirectResult> {
    const { redirectTo, ...fields } = (input ?? {}) as { redirectTo?: string };
    const body = { ...fields, callbackUrl: redirectTo ?? "/" };
    const parsed = inProcessRequest(resolved, request, { method: "POST", action, providerId: form, body });
    return redirectOf(await perform(resolved, parsed));
  }
  function password(request: RequestLike, form: string, input: object | undefined) {
    return post("password", request, form, input);
  }
  function account(request: RequestLike, form: string, input: object | undefined) {
    return post("account", request, form, input);
  }
}

function passkeyRequest(resolved: UsableAuth, request: RequestLike, route: string, body: Record<string, unknown>): RequestInternal {
  return inProcessRequest(resolved, request, { method: "POST", action: "passkeys", providerId: route, body });
}

function revokeRequest(resolved: UsableAuth, request: RequestLike, body: Record<string, unknown>): RequestInternal {
  return inProcessRequest(resolved, request, { method: "POST", action: "sessions", providerId: "revoke", body });
}

function revokeResult(result: { body?: unknown; cookies?: Cookie[] }): RevokeResult {
  return { revoked: (result.body as { revoked: number }).revoked, cookies: result.cookies ?? [] };
}
