/**
 * A user whose email address was never proven but who has passkeys was made by whoever registered those
 * passkeys: that proves nothing about the address. Signing the address owner into such a user (by email
 * link, or by linking an OAuth account on the same email) would hand the passkey holder the owner's
 * account, so those sign-ins are refused; the passkey holder still signs in with the passkey.
 */
import type { AdapterUser } from "../adapters.js";
import type { InternalOptions } from "../internal-types.js";

/** True when `user` has passkeys and no verified email. */
export async function isUnprovenPasskeyUser(options: InternalOptions, user: AdapterUser): Promise<boolean> {
  const adapter = options.adapter;
  if (user.emailVerified || !adapter?.listAuthenticatorsByUserId) return false;
  return (await adapter.listAuthenticatorsByUserId(user.id)).length > 0;
}
