/**
 * How many ways a user has to sign in, without a given account: the rule `unlinkAccount` keeps (a user
 * is never left locked out of their own account by unlinking).
 *
 * A way in is something a configured provider still accepts:
 * - a linked account (OAuth, OIDC, a password account, …) whose provider is configured; an account of a
 *   provider the app no longer has is no way in (nothing can sign in with it);
 * - a passkey, when a passkey provider is configured: the user's authenticators (their `webauthn`
 *   account rows when the adapter cannot list authenticators);
 * - a proven address (`email` and `emailVerified` set) when an email provider is configured.
 *
 * @module accounts/sign-in-ways
 */
import type { LinkedAccountStore } from "../types/adapter-capabilities.js";
import type { AdapterAccount } from "../types/adapters.js";
import type { User } from "../types/base.js";
import type { InternalProvider } from "../types/internal.js";

/** True when `account` is a way in by itself (passkeys are counted by their authenticators instead). */
export function isWayIn(account: AdapterAccount, providers: readonly InternalProvider[]): boolean {
  return account.type !== "webauthn" && providers.some((provider) => provider.id === account.provider);
}

/** The user's ways in when only `accounts` are linked (see the module comment). */
export async function countSignInWays(
  store: LinkedAccountStore,
  providers: readonly InternalProvider[],
  user: User & { id: string },
  accounts: readonly AdapterAccount[],
): Promise<number> {
  let ways = accounts.filter((account) => isWayIn(account, providers)).length;
  if (providers.some((provider) => provider.type === "webauthn")) {
    ways += store.listAuthenticatorsByUserId
      ? (await store.listAuthenticatorsByUserId(user.id)).length
      : accounts.filter((account) => account.type === "webauthn").length;
  }
  if (user.email && user.emailVerified && providers.some((provider) => provider.type === "email")) ways += 1;
  return ways;
}
