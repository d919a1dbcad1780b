/**
 * authlib for Qwik City.
 *
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { FrameworkAuth$ } from "@authlib/qwik";
 * import Credentials from "@authlib/core/providers/credentials";
 *
 * export const { onRequest, useSession, useSignIn, useSignOut, useSessions, useRevokeSession, useAccounts, useUnlinkAccount } =
 *   FrameworkAuth$((ev) => ({
 *   providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: checkPassword })],
 * }));
 * ```
 *
 * - `onRequest` answers everything under `basePath` (default `/auth`): the built-in pages and the JSON
 *   endpoints, with core's CSRF check. It does nothing else until the session is asked for.
 * - `useSession()` in a component, or `getSession(ev)` in server code, gives `Session | null`.
 * - `useSignIn` / `useSignOut` are `globalAction$`s for `<Form>`s; `signIn(ev, …)` / `signOut(ev, …)` do
 *   the same from the app's own actions. A rejected credentials sign-in is reported to the form (the
 *   actions) or thrown as `CredentialsSignin` (the functions), never turned into an error page.
 * - `useAccounts()` lists the signed-in user's linked accounts and `useUnlinkAccount` unlinks one, unless
 *   it is their last way to sign in (linked accounts need an adapter that can list them).
 * - `useSignUp`, `useRequestPasswordReset`, `useResetPassword` and `useChangePassword` are the
 *   `Password()` provider's actions (email-and-password accounts): they redirect on success and report
 *   a user's mistake to the form (`code`: the error's type), never as an error page.
 * - `useEmailCode` signs in with the code of a sign-in mail, typed in the browser that asked for it (the
 *   app's own verify-request page; authlib's built-in one has the form already).
 * - `useTwoFactor` completes the second step of a sign-in; `useEnrollTotp`, `useConfirmTotp` and
 *   `useDisableTotp` turn an authenticator app on and off; `useRegenerateRecoveryCodes` makes new recovery
 *   codes; `useTwoFactorStatus()` says what the user has;
 *   `requireRecentAuth(ev, { maxAge, aal })` sends a user whose sign-in is too old or too weak to sign in
 *   again (core's `twoFactor` option, docs/two-factor.md).
 * - `useOrganizations()` lists the user's organizations; `useCreateOrganization`, `useInviteMember`,
 *   `useSetActiveOrganization` and the other organization actions run core's organization operations
 *   (core's `organizations` option, docs/organizations.md), reporting a refusal to the form (`code`).
 * - `useListUsers`, `useGetUser`, `useBanUser`, `useUnbanUser`, `useSetUserPassword`, `useDeleteUser` and
 *   the other admin actions run core's admin operations (core's `admin` option, docs/admin.md); core asks
 *   the store on every call whether the caller is an admin (`AccessDenied` otherwise).
 * - `useCreateApiKey`, `useListApiKeys`, `useRotateApiKey` and `useRevokeApiKey` manage the user's and an
 *   organization's API keys (core's `apiKeys` option, docs/api-keys.md); a new key is in the action's value once.
 * - `useSessions()` lists the signed-in user's sessions (their devices) and `useRevokeSession` ends one
 *   of them or all others (session control needs a registry: `session.store` for JWT sessions, or an
 *   adapter with the session record methods).
 *
 * @module @authlib/qwik
 */

export type {
  Account,
  DefaultSession,
  LinkedAccount,
  ListedPasskey,
  ListedSession,
  Profile,
  Session,
  User,
} from "@authlib/core";
export { AuthError, CredentialsSignin } from "@authlib/core/errors";
export type { AccountsError, AccountsResult, UnlinkAccountError, UnlinkAccountFailure } from "./accounts.js";
export type { AdminError, AdminFailure, AdminResult } from "./admin.js";
export type { ApiKeyError, ApiKeyFailure, ApiKeyResult } from "./api-keys.js";
export type { AuthContext, FrameworkAuthConfig, FrameworkAuthConfigQrl } from "./context.js";
export {
  FrameworkAuth$,
  FrameworkAuthQrl,
  type FrameworkAuthResult,
  type PasskeyResult,
  type RevokeSessionResult,
  type UnlinkAccountResult,
} from "./framework-auth.js";
export type { ImpersonationFailure, ImpersonationResult } from "./impersonation.js";
export { CREDENTIALS_SIGNIN_MESSAGE } from "./messages.js";
export type { OrganizationsResult } from "./operation-actions.js";
export type { ActiveOrganizationResult } from "./organization-hooks.js";
export type { OrganizationError, OrganizationFailure, OrganizationResult } from "./organizations.js";
export type { PasskeyError, PasskeyFailure, PasskeysError, PasskeysResult } from "./passkeys.js";
export type { PasswordError, PasswordFailure, PasswordResult } from "./password.js";
export { getSession } from "./session.js";
export type { RevokeSessionError, RevokeSessionFailure, SessionsError, SessionsResult } from "./session-control.js";
export { type AuthorizationParams, type SignInOptions, type SignOutOptions, signIn, signOut } from "./sign-in.js";
export { requireRecentAuth, type TotpEnrollment, type TwoFactorResult, type TwoFactorStatus } from "./two-factor.js";
export type {
  ChangePasswordInput,
  EmailCodeInput,
  FormFailure,
  FormResult,
  RemovePasskeyInput,
  RenamePasskeyInput,
  RequestPasswordResetInput,
  ResetPasswordInput,
  RevokeSessionInput,
  SignInFailure,
  SignInInput,
  SignOutFailure,
  SignOutInput,
  SignUpInput,
  TwoFactorCodeInput,
  UnlinkAccountInput,
} from "./validation.js";
