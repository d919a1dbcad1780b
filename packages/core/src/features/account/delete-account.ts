/**
 * Deleting one's own account (`POST <basePath>/account/delete`, `auth.api.deleteAccount`): the user,
 * their accounts, sessions and passkeys go (the adapter's `deleteUser`), every session ends, and the
 * `userDeleted` event fires.
 *
 * A stolen session alone must not be enough: the owner-present rule (`sign-in/owner-present.ts`) asks
 * for a recent sign-in or the current password before this runs, and a user who has a password types it
 * here in any case (counted under the credentials limits, like a sign-in).
 *
 * @module account-lifecycle/delete-account
 */
import { MissingAdapterMethods } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { isPasswordProvider } from "../../provider-kind.js";
import { endUserSessions } from "../../session/end-user-sessions.js";
import { signedInUser } from "../../session/signed-in-user.js";
import { checkCurrentPassword } from "../../sign-in/current-password.js";
import { hashOf, passwordAccountOf } from "../../sign-in/password-account.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { deleteAccountInput } from "./input.js";

/** POST /account/delete (`currentPassword` when the user has a password). */
export async function deleteAccount(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof deleteAccountInput>,
): Promise<ResponseInternal> {
  assertCsrf("account deletion", options.csrfTokenVerified);
  const adapter = options.adapter;
  if (!adapter?.deleteUser || !adapter.getUser)
    throw new MissingAdapterMethods("Deleting an account needs an adapter with getUser and deleteUser.");
  const user = await signedInUser(options, request, adapter);
  const password = options.providers.find(isPasswordProvider);
  const { listAccountsByUserId } = adapter;
  const hash = password && listAccountsByUserId ? hashOf(await passwordAccountOf({ listAccountsByUserId }, password, user.id)) : undefined;
  if (hash && password) await checkCurrentPassword(options, request, password, { user, hash }, input.currentPassword);
  const cookies = await options.sessionStrategy.end(options, request);
  await endUserSessions(options, adapter, user.id);
  await adapter.deleteUser(user.id);
  await options.events.userDeleted({ user });
  return { redirect: options.callbackUrl, cookies };
}
