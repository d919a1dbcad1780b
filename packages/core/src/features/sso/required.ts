/**
 * `ssoRequired`: an address at a domain proven by an organization whose connection requires SSO signs in
 * only through that connection. Every other first factor (a password, an email link or code, an OAuth or
 * social provider, a passkey) is refused with `SsoRequired`, at the shared gate (`signInRefusal`, for the
 * user whichever way they were found) and, earlier, on the password and email forms (`addressRefusal`,
 * before a password is checked or a mail sent). An unproven domain never requires anything.
 *
 * @module features/sso/required
 */
import { SsoRequired } from "../../errors.js";
import type { AuthErrorShape } from "../../types/errors.js";
import type { ConfigOptions } from "../../types/internal.js";
import { connectionForAddress } from "./domains.js";
import { storeOf } from "./store.js";

/** The amr name of an SSO sign-in: the one way in an SSO-only address keeps. */
const SSO_METHOD = "sso";

/** `SsoRequired` when `address` may sign in only through its organization's SSO and `method` is another way. */
export async function ssoAddressRefusal(
  options: Pick<ConfigOptions, "adapter">,
  address: string,
  method: string,
): Promise<AuthErrorShape | undefined> {
  if (method === SSO_METHOD) return undefined;
  const connection = await connectionForAddress(options, address);
  if (!connection?.ssoRequired) return undefined;
  return new SsoRequired("Your organization requires its SSO for this address: sign in with your organization's SSO.");
}

/** The gate's answer for `userId` signing in by `method`: their address decides (no address: nothing to require). */
export async function ssoSignInRefusal(
  options: Pick<ConfigOptions, "adapter">,
  userId: string,
  method: string,
): Promise<AuthErrorShape | undefined> {
  if (method === SSO_METHOD) return undefined;
  const user = await storeOf(options).getUser(userId);
  return user?.email ? ssoAddressRefusal(options, user.email, method) : undefined;
}
