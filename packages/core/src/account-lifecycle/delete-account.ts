/**
 * Deleting one's own account (`POST <basePath>/account/delete`, `auth.api.deleteAccount`): the user,
 * their accounts, sessions and passkeys go (the adapter's `deleteUser`), every session ends, and the
 * `userDeleted` event fires.
 *
 * A stolen session alone must not be enough, so the owner proves they are at the keyboard: with the
 * current password when they have one (counted under the credentials limits, like a sign-in), else with
 * a session that started in the last {@link RECENT_SIGN_IN_SECONDS} seconds (its record's `createdAt`:
 * sign in again to delete).
 *
 * @module account-lifecycle/delete-account
 */
import { MissingAdapterMethods, RecentSignInRequired } from "../errors.js";
import { assertCsrf } from "../http/csrf.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../internal-types.js";
import { hashOf, passwordAccountOf } from "../password-accounts/account.js";
import { checkCurrentPassword } from "../password-accounts/current-password.js";
import { isPasswordProvider } from "../provider-kind.js";
import { endUserSessions } from "../session/end-user-sessions.js";
import { signedInUser } from "../session/signed-in-user.js";

/** How recent a sign-in must be to delete an account without a password. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

/** True when the request's session started within {@link RECENT_SIGN_IN_SECONDS} (its record says so). */
async function signedInRecently(options: InternalOptions, request: RequestInternal): Promise<boolean> {
  const current = await options.sessionStrategy.currentSession(options, request);
  const record = current?.sessionId ? await options.sessionRegistry?.get(current.userId, current.sessionId) : null;
  return record ? Date.now() - record.createdAt.getTime() <= RECENT_SIGN_IN_SECONDS * 1000 : false;
}

/** POST /account/delete (`currentPassword` when the user has a password). */
export async function deleteAccount(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  assertCsrf("account deletion", options.csrfTokenVerified);
  const adapter = options.adapter;
  if (!adapter?.deleteUser || !adapter.getUser)
    throw new MissingAdapterMethods("Deleting an account needs an adapter with getUser and deleteUser.");
  const user = await signedInUser(options, request, adapter);
  const password = options.providers.find(isPasswordProvider);
  const { listAccountsByUserId } = adapter;
  const hash = password && listAccountsByUserId ? hashOf(await passwordAccountOf({ listAccountsByUserId }, password, user.id)) : undefined;
  if (hash && password) {
    await checkCurrentPassword(options, request, password, { user, hash }, request.body.currentPassword);
  } else if (!(await signedInRecently(options, request))) {
    throw new RecentSignInRequired("Sign in again (within 10 minutes) to delete your account.");
  }
  const cookies = await options.sessionStrategy.end(options, request);
  await endUserSessions(options, adapter, user.id);
  await adapter.deleteUser(user.id);
  await options.events.userDeleted({ user });
  return { redirect: options.callbackUrl, cookies };
}
