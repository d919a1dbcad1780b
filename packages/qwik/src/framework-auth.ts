/**
 * `FrameworkAuth$`: the members an app exports from `src/routes/plugin@auth.ts`.
 *
 * Each loader and action is one `routeLoader$` / `globalAction$` call written out here, because the Qwik
 * optimizer (the app's, Qwik 1 and 2) makes each `$` function a segment of its own where it sees it written:
 * one made in a loop or a shared helper would be one segment, and one id, for all. The actions that run
 * one core operation are one line each over the table of `operation-actions.ts`. The closures capture
 * only `configQrl` (a QRL, serializable) and module-level functions.
 */
import type { ListedPasskey, Session } from "@authlib/core";
import { implicit$FirstArg } from "@builder.io/qwik";
import { isServer } from "@builder.io/qwik/build";
import { type Action, globalAction$, type RequestEventCommon, routeLoader$, validator$ } from "@builder.io/qwik-city";
import type { AccountsResult, UnlinkAccountFailure } from "./accounts.js";
import { adminActionHooks, adminUserHooks } from "./admin-hooks.js";
import { apiKeyHooks } from "./api-keys-hooks.js";
import { type FrameworkAuthConfig, type FrameworkAuthConfigQrl, loadAuthContext } from "./context.js";
import { impersonationHooks } from "./impersonation-hooks.js";
import { runListing, runOperation, signInWithEmailCode, validateOperation } from "./operation-actions.js";
import { activeOrganizationHooks, domainHooks, invitationHooks, memberHooks, organizationHooks } from "./organization-hooks.js";
import type { PasskeyFailure, PasskeysResult } from "./passkeys.js";
import type { PasswordResult } from "./password.js";
import { handleRequest } from "./request.js";
import { readSession } from "./session.js";
import type { RevokeSessionFailure, SessionsResult } from "./session-control.js";
import { signInAction, signOutAction } from "./sign-in-action.js";
import { type TotpEnrollment, type TwoFactorResult, twoFactorStatus } from "./two-factor.js";
import {
  type ChangePasswordInput,
  type EmailCodeInput,
  emailCodeSchema,
  type FormResult,
  type RemovePasskeyInput,
  type RenamePasskeyInput,
  type RequestPasswordResetInput,
  type ResetPasswordInput,
  type RevokeSessionInput,
  type SignInFailure,
  type SignInInput,
  type SignOutFailure,
  type SignOutInput,
  type SignUpInput,
  signInSchema,
  signOutSchema,
  type TwoFactorCodeInput,
  type UnlinkAccountInput,
  validateInput,
} from "./validation.js";

/**
 * Initialises authlib for Qwik City from a QRL of the configuration function. Prefer
 * {@link FrameworkAuth$}; this is what the optimizer turns it into.
 */
export function FrameworkAuthQrl(configQrl: FrameworkAuthConfigQrl) {
  /**
   * Request hook. Under `basePath` (default `/auth`) core answers: the built-in pages, the JSON
   * endpoints and the OAuth callbacks, with core's CSRF check. Elsewhere it does no auth work.
   */
  async function onRequest(ev: RequestEventCommon): Promise<void> {
    // The client build drops this body, and with it core, from the browser bundles.
    if (!isServer) return;
    await handleRequest(ev, configQrl);
  }

  // The loaders and the actions are made here and exported by the app from src/routes/plugin@auth.ts,
  // which is where Qwik City finds them. Listed one by one: the declaration of the result keeps this order.
  const { useSession, useSignIn, useSignOut } = signInHooks(configQrl);
  const { useSessions, useRevokeSession, useAccounts, useUnlinkAccount } = controlHooks(configQrl);
  const { usePasskeys, useRenamePasskey, useRemovePasskey } = passkeyHooks(configQrl);
  const { useSignUp, useRequestPasswordReset, useResetPassword, useChangePassword } = passwordHooks(configQrl);
  const { useEmailCode, useTwoFactor } = codeHooks(configQrl);
  const { useEnrollTotp, useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useTwoFactorStatus } = totpHooks(configQrl);
  return {
    /**
     * Request hook (export it from `plugin@auth.ts`). Under `basePath` (default `/auth`) it answers as
     * core's `Auth()` would; elsewhere it only prepares a per-request context.
     */
    onRequest,
    useSession,
    useSignIn,
    useSignOut,
    useSessions,
    useRevokeSession,
    useAccounts,
    useUnlinkAccount,
    usePasskeys,
    useRenamePasskey,
    useRemovePasskey,
    useSignUp,
    useRequestPasswordReset,
    useResetPassword,
    useChangePassword,
    useEmailCode,
    useTwoFactor,
    useEnrollTotp,
    useConfirmTotp,
    useDisableTotp,
    useRegenerateRecoveryCodes,
    useTwoFactorStatus,
    // Organizations (core's `organizations` option): `useOrganizations`, `useCreateOrganization`, … (organization-hooks.ts).
    ...organizationHooks(configQrl),
    ...activeOrganizationHooks(configQrl),
    ...memberHooks(configQrl),
    ...invitationHooks(configQrl),
    ...domainHooks(configQrl),
    // The admin's tools (core's `admin` option): `useListUsers`, `useBanUser`, … (admin-hooks.ts).
    ...adminUserHooks(configQrl),
    ...adminActionHooks(configQrl),
    // Impersonation (`admin`: `useImpersonateUser`, …, impersonation-hooks.ts), API keys (`apiKeys`: api-keys-hooks.ts).
    ...impersonationHooks(configQrl),
    ...apiKeyHooks(configQrl),
  };
}

// The rule below cannot see from a library that the app exports each hook from its plugin@auth.ts.

/** `useSession`, `useSignIn`, `useSignOut`. */
function signInHooks(configQrl: FrameworkAuthConfigQrl) {
  /** The current session, or `null` when signed out. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSession = routeLoader$(async (ev): Promise<Session | null> => readSession(ev, await loadAuthContext(ev, configQrl)));

  /**
   * Signs in. Fields: `providerId`, `redirectTo` (or `options.redirectTo`), `options.*` (passed to the
   * provider: `options.email`, `options.password`, …), `authorizationParams`. Redirects (303) on success;
   * rejected credentials give `{ failed: true, formErrors, fieldErrors, code }` with status 401; a
   * refusal by a rate limit the same with `code: "RateLimited"`, status 429 and `Retry-After`; an email
   * address core sends no mail to the same with `code: "EmailSignInError"` and status 400.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSignIn: Action<FormResult<SignInFailure>, SignInInput> = globalAction$(
    (form, ev) => signInAction(ev, configQrl, form),
    validator$((_ev, data) => validateInput(signInSchema, data)),
  );

  /** Signs out, then redirects (303) to `redirectTo` (default: the current page). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSignOut: Action<FormResult<SignOutFailure>, SignOutInput> = globalAction$(
    (form, ev) => signOutAction(ev, configQrl, form),
    validator$((_ev, data) => validateInput(signOutSchema, data)),
  );
  return { useSession, useSignIn, useSignOut };
}

/** `useSessions`, `useRevokeSession`, `useAccounts`, `useUnlinkAccount`: session control and linked accounts. */
function controlHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * The signed-in user's sessions (their devices), most recently seen first, the current one marked
   * `current`: `{ sessions }`, or `{ sessions: null, error }` with `"SessionRequired"` when nobody is
   * signed in, `"SessionRegistryMissing"` when the configuration cannot list sessions (no
   * `session.store` for JWT sessions, an adapter without the session record methods), `"Configuration"`
   * when listing failed (logged). Never throws for those.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSessions = routeLoader$((ev): Promise<SessionsResult> => runListing(ev, configQrl, "listSessions"));

  /**
   * Ends one of the signed-in user's sessions (field `sessionId`, an id from `useSessions`) or all but
   * this browser's (`all` = `"others"`): answers `{ revoked }`, the number ended. Ending this browser's
   * own session signs it out (its cookie is cleared). A failure is `{ failed: true, formErrors,
   * fieldErrors, code }` with the error's type in `code`: `SessionNotFound` (404: not one of the user's
   * live sessions, nothing changed), `InvalidSessionId` (400), `SessionRequired` (401), `MissingCSRF`
   * (403: sent from another site), `SessionRegistryMissing` (501), `Configuration` (500).
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRevokeSession: Action<RevokeSessionResult, RevokeSessionInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "revokeSession", form),
    validator$((_ev, data) => validateOperation("revokeSession", data)),
  );

  /**
   * The signed-in user's linked accounts (`provider`, `type`, `providerAccountId`, never their tokens;
   * passkeys as `type: "webauthn"`): `{ accounts }`, or `{ accounts: null, error }` with
   * `"SessionRequired"` when nobody is signed in, `"AccountsUnavailable"` without an adapter that can list
   * them, `"Configuration"` when listing failed (logged). Never throws for those.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useAccounts = routeLoader$((ev): Promise<AccountsResult> => runListing(ev, configQrl, "listAccounts"));

  /**
   * Unlinks one of the signed-in user's accounts (fields `provider`, `providerAccountId`, as `useAccounts`
   * lists it): answers `{ unlinked }`. A failure is `{ failed: true, formErrors, fieldErrors, code }` with
   * the error's type in `code`: `LastSignInMethod` (409: the user would have no way left to sign in),
   * `AccountNotFound` (404: not one of the user's accounts), `InvalidAccount` (400: a passkey),
   * `SessionRequired` (401), `MissingCSRF` (403: sent from another site), `AccountsUnavailable` (501),
   * `Configuration` (500). Nothing changed after any of them. A missing or overlong field is a 400
   * under `fieldErrors`, before core.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useUnlinkAccount: Action<UnlinkAccountResult, UnlinkAccountInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "unlinkAccount", form),
    validator$((_ev, data) => validateOperation("unlinkAccount", data)),
  );
  return { useSessions, useRevokeSession, useAccounts, useUnlinkAccount };
}

/** `usePasskeys`, `useRenamePasskey`, `useRemovePasskey`. */
function passkeyHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * The signed-in user's passkeys, oldest first (`id`, `name`, `createdAt`, `lastUsedAt`, `deviceType`,
   * `backedUp`), or `{ passkeys: null, error }`: `SessionRequired`, `UnknownAction` (no passkey
   * provider), `MissingAdapterMethods` (the adapter has no `updateAuthenticator` / `deleteAuthenticator`),
   * `Configuration`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const usePasskeys = routeLoader$((ev): Promise<PasskeysResult> => runListing(ev, configQrl, "listPasskeys"));

  /**
   * Renames one of the signed-in user's passkeys (fields `id`, as `usePasskeys` lists it, and `name`: one
   * line, at most 64 characters): answers `{ passkey }`. A failure is `{ failed: true, formErrors,
   * fieldErrors, code }`: `InvalidName` (400), `PasskeyNotFound` (404: not one of the user's passkeys),
   * `SessionRequired` (401), `MissingCSRF` (403), `Configuration` (500). Nothing changed after any of them.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRenamePasskey: Action<PasskeyResult<{ passkey: ListedPasskey }>, RenamePasskeyInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "renamePasskey", form),
    validator$((_ev, data) => validateOperation("renamePasskey", data)),
  );

  /**
   * Removes one of the signed-in user's passkeys (field `id`; `currentPassword` optional): answers
   * `{ removed }`. It needs the owner present: a sign-in that is too old sends the browser to sign in
   * again and back to this page (`code: "RecentSignInRequired"`, 403). Other failures: `LastSignInMethod`
   * (409: the user would have no way left to sign in), `PasskeyNotFound` (404), `IncorrectPassword` (403),
   * `SessionRequired` (401), `MissingCSRF` (403), `Configuration` (500). Nothing changed after any of them.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRemovePasskey: Action<PasskeyResult<{ removed: number }>, RemovePasskeyInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "removePasskey", form),
    validator$((_ev, data) => validateOperation("removePasskey", data)),
  );
  return { usePasskeys, useRenamePasskey, useRemovePasskey };
}

// The password actions (core's `Password()` provider). Each redirects (303) on success, as `useSignIn`
// does (a script-driven `<Form>` gets the URL in Qwik's data); a failure is `{ failed: true, formErrors,
// fieldErrors, code }` (password.ts): `InvalidPassword` (400, with `rule`), `InvalidName` (400),
// `EmailSignInError` (400 for an address core refuses, 503 when the mail could not be sent),
// `Verification` (400), `SessionRequired` (401), `IncorrectPassword` (403), `MissingCSRF` (403: sent
// from another site), `PasswordNotSet` (409), `RateLimited` (429, `Retry-After`), `Configuration` (500).
// Input that is not strings of a sane length is a 400 under `fieldErrors`, before core.

/** `useSignUp`, `useRequestPasswordReset`, `useResetPassword`, `useChangePassword`. */
function passwordHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * Creates a password account (fields `email`, `password`, `name`, `redirectTo`): mails a verification
   * link (or, when the address has an account, tells its owner so) and redirects to the verify-request
   * page either way. Following the link in this browser signs in and lands on `redirectTo`. Fails with
   * `InvalidPassword`, `InvalidName`, `EmailSignInError`, `RateLimited`, `MissingCSRF`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSignUp: Action<PasswordResult<SignUpInput>, SignUpInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "signUp", form),
    validator$((_ev, data) => validateOperation("signUp", data)),
  );

  /**
   * Asks for a password-reset link (fields `email`, `redirectTo`): mails it (or, for an address without
   * an account, says so to it) and redirects to the verify-request page either way. The link works in
   * this browser only. Fails with `EmailSignInError`, `RateLimited`, `MissingCSRF`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRequestPasswordReset: Action<PasswordResult<RequestPasswordResetInput>, RequestPasswordResetInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "requestPasswordReset", form),
    validator$((_ev, data) => validateOperation("requestPasswordReset", data)),
  );

  /**
   * Sets a new password with a reset link (fields `token`, the link's `?token=`, and `password`): ends
   * every session of the user, signs this browser in (session cookie set) and redirects to where the link
   * was asked for. Fails with `Verification` (a link that is not valid, expired, used, from another
   * browser, or older than a password change), `InvalidPassword`, `MissingCSRF`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useResetPassword: Action<PasswordResult<ResetPasswordInput>, ResetPasswordInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "resetPassword", form),
    validator$((_ev, data) => validateOperation("resetPassword", data)),
  );

  /**
   * Changes the signed-in user's password (fields `currentPassword`, `password`, `redirectTo`, default the
   * current page): ends their other sessions, renews this one (its cookie set) and redirects. Fails with
   * `IncorrectPassword`, `InvalidPassword`, `SessionRequired`, `PasswordNotSet` (they sign in another way:
   * a reset link sets one), `RateLimited` (guesses of the current password count as failed sign-ins),
   * `MissingCSRF`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useChangePassword: Action<PasswordResult<ChangePasswordInput>, ChangePasswordInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "changePassword", form),
    validator$((_ev, data) => validateOperation("changePassword", data)),
  );
  return { useSignUp, useRequestPasswordReset, useResetPassword, useChangePassword };
}

/** `useEmailCode`, `useTwoFactor`: the codes typed to finish a sign-in. */
function codeHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * Signs in with the code of a sign-in mail (fields `code`, `redirectTo`: default, where the mail was
   * asked to lead), typed in the browser that asked for the mail (the app's verify-request page, set as
   * `pages.verifyRequest`): renews the session and redirects. Fails with `IncorrectCode` (400, under
   * `code`; 5 wrong codes spend the mail), `Verification` (400: used, expired, dead, or another browser),
   * `RateLimited` (429), `MissingCSRF`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useEmailCode: Action<PasswordResult<EmailCodeInput>, EmailCodeInput> = globalAction$(
    (form, ev) => signInWithEmailCode(ev, configQrl, form),
    validator$((_ev, data) => validateInput(emailCodeSchema, data)),
  );

  /**
   * The second step of a sign-in (field `code`: a code of the authenticator app, or a recovery code),
   * typed in the browser that passed the first factor (the app's own page, set as `pages.twoFactor`;
   * authlib's built-in one has the form already): starts the session and redirects where the sign-in was
   * to lead. Fails with `IncorrectCode` (400, under `code`), `TwoFactorExpired` (401: sign in again),
   * `RateLimited` (429), `MissingCSRF`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useTwoFactor: Action<PasswordResult<TwoFactorCodeInput>, TwoFactorCodeInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "verifyTwoFactor", form),
    validator$((_ev, data) => validateOperation("verifyTwoFactor", data)),
  );
  return { useEmailCode, useTwoFactor };
}

/**
 * `useEnrollTotp`, `useConfirmTotp`, `useDisableTotp`, `useRegenerateRecoveryCodes`, `useTwoFactorStatus`:
 * the authenticator app's settings.
 */
function totpHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * Starts setting up an authenticator app (no fields): `{ secret, uri, qrSvg }` to show (the QR code is
   * an SVG document). A sign-in older than 10 minutes sends the browser to sign in again first.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useEnrollTotp: Action<TwoFactorResult<TotpEnrollment>> = globalAction$((form, ev) =>
    runOperation(ev, configQrl, "enrollTotp", form),
  );

  /** Turns the app on with its code (field `code`): `{ recoveryCodes }`, to show once. Fails with `IncorrectCode`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useConfirmTotp: Action<TwoFactorResult<{ recoveryCodes: string[] }>, TwoFactorCodeInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "confirmTotp", form),
    validator$((_ev, data) => validateOperation("confirmTotp", data)),
  );

  /** Turns the app off with a code of it or a recovery code (field `code`): `{ disabled: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useDisableTotp: Action<TwoFactorResult<{ disabled: true }>, TwoFactorCodeInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "disableTotp", form),
    validator$((_ev, data) => validateOperation("disableTotp", data)),
  );

  /**
   * Makes 10 new recovery codes with a code of the app or an unused recovery code (field `code`):
   * `{ recoveryCodes }`, to show once; the earlier ones stop working. Fails with `IncorrectCode`.
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRegenerateRecoveryCodes: Action<TwoFactorResult<{ recoveryCodes: string[] }>, TwoFactorCodeInput> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "regenerateRecoveryCodes", form),
    validator$((_ev, data) => validateOperation("regenerateRecoveryCodes", data)),
  );

  /** The signed-in user's second factors (`{ totp, recoveryCodes, passkeys }`), or `null` when signed out. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useTwoFactorStatus = routeLoader$((ev) => twoFactorStatus(ev, configQrl));
  return { useEnrollTotp, useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useTwoFactorStatus };
}

/** The value of `useUnlinkAccount`: `{ unlinked }` after an unlink, or the failure. */
export type UnlinkAccountResult =
  | { unlinked: number; failed?: undefined }
  | ({ failed: true; unlinked?: undefined } & UnlinkAccountFailure);

/** The value of `useRenamePasskey` and `useRemovePasskey`: what the operation answered, or the failure. */
export type PasskeyResult<Value> = (Value & { failed?: undefined }) | ({ failed: true } & PasskeyFailure);

/** The value of `useRevokeSession`: `{ revoked }` after a revocation, or the failure. */
export type RevokeSessionResult = { revoked: number; failed?: undefined } | ({ failed: true; revoked?: undefined } & RevokeSessionFailure);

/** What {@link FrameworkAuth$} returns. */
export type FrameworkAuthResult = ReturnType<typeof FrameworkAuthQrl>;

/**
 * Initialises authlib for Qwik City (spec §4.1). The function receives the request event and returns
 * the configuration; it runs once per request, on the server only, and `setEnvDefaults` then fills it
 * from Qwik's `ev.env` (`AUTH_SECRET`, `AUTHLIB_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`, …).
 *
 * The client build still sees the function (components import `useSession` and friends from the same
 * file). If it imports Node-only modules (password hashing, `node:fs`), start it with
 * `if (!isServer) throw …` (`isServer` from `@builder.io/qwik/build`) so the client build drops them.
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { FrameworkAuth$ } from "@authlib/qwik";
 * import GitHub from "@authlib/core/providers/github";
 *
 * export const { onRequest, useSession, useSignIn, useSignOut, useSessions, useRevokeSession, useAccounts, useUnlinkAccount } =
 *   FrameworkAuth$(() => ({
 *   providers: [GitHub],
 * }));
 * ```
 */
export const FrameworkAuth$: (
  config: (ev: RequestEventCommon) => FrameworkAuthConfig | Promise<FrameworkAuthConfig>,
) => FrameworkAuthResult = /*#__PURE__*/ implicit$FirstArg(FrameworkAuthQrl);
