/**
 * Finds or creates the user behind an OAuth sign-in, and links the account: the account-linking rules.
 *
 * - Already linked: that user (refused with `OAuthAccountNotLinked` if someone else is signed in).
 * - Signed in: the account is linked to the signed-in user only when `link` is set, i.e. when this same
 *   browser and session started the flow as a link (POST /signin/:provider with `link=true`, sealed into
 *   the check cookies); otherwise refused with `OAuthAccountNotLinked`. Never a silent link: a callback a
 *   signed-in victim was sent to by someone else must not attach the sender's account to the victim.
 * - The provider vouches for the email (see `unproven-email.ts`; the caller passes the user through
 *   `withProvenEmail`) and an existing user proved the same address: refused with `OAuthAccountNotLinked`,
 *   unless the provider allows dangerous email linking. A holder that never proved it loses the address.
 * - Otherwise a new user is created and linked, with the email only when the provider vouched for it.
 *
 * Without an adapter there is nothing to store: the user id is derived from provider + account id, so
 * it is the same at every sign-in (the reference library makes a random one each time).
 */

import type { UserStore } from "../adapter/capabilities.js";
import { sha256Hex } from "../crypto/digest.js";
import { OAuthAccountNotLinked } from "../errors.js";
import { storedAccount } from "../oauth/index.js";
import type { AdapterAccount, AdapterUser } from "../types/adapters.js";
import type { Account, User } from "../types/config.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { OAuthConfig } from "../types/providers.js";
import { claimProvenAddress } from "./proven-address.js";
import { tellOwner } from "./tell-owner.js";

/** A stable, UUID-shaped user id for provider + account id (used without an adapter). */
export async function stableUserId(provider: string, providerAccountId: string): Promise<string> {
  const hex = await sha256Hex(`${provider}\u0000${providerAccountId}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The account row to store: the provider's `account()` pick (or the standard token fields), for `userId`. */
function accountRow(provider: OAuthConfig, account: Account, userId: string): AdapterAccount {
  return { ...storedAccount(provider, account), type: account.type as AdapterAccount["type"], userId };
}

/** An OAuth sign-in as the callback found it. */
export interface OAuthSignIn {
  provider: OAuthConfig;
  /** The profile's user, with the email only when the provider vouched for it (`withProvenEmail`). */
  profileUser: User;
  account: Account;
  /** True when this browser and session started the flow as an explicit link. */
  link?: boolean;
  /** The user already linked to this account (`getUserByAccount`, looked up by the callback), or `null`. */
  linked: AdapterUser | null;
}

/**
 * The user for this sign-in and whether it was just created. `linkedToSession` is true when the flow was
 * a link (`link`) and the account is now (or already was) the signed-in user's: the caller keeps that
 * session as it is instead of starting one.
 */
export async function findOrCreateOAuthUser(
  options: InternalOptions,
  request: RequestInternal,
  signIn: OAuthSignIn,
): Promise<{ user: User | AdapterUser; isNewUser: boolean; linkedToSession?: true }> {
  const { provider, profileUser, account, link = false, linked } = signIn;
  const { events } = options;
  const { users } = options.capabilities;
  if (!users) {
    return { user: { ...profileUser, id: await stableUserId(account.provider, account.providerAccountId) }, isNewUser: false };
  }
  const current = await options.sessionStrategy.currentUser(options, request);
  if (linked) {
    if (current?.id && current.id !== linked.id) throw new OAuthAccountNotLinked("This account is already linked to another user.");
    return { user: linked, isNewUser: false, ...(link && current?.id ? { linkedToSession: true as const } : {}) };
  }

  if (current?.id) {
    if (!link) {
      throw new OAuthAccountNotLinked('You are signed in as another user: use "Link another account" to add this account to yours.');
    }
    await users.linkAccount(accountRow(provider, account, current.id));
    await events.linkAccount({ user: current, account, profile: profileUser });
    await tellOwner(options, request, { id: current.id, email: current.email }, "accountLinked");
    return { user: current, isNewUser: false, linkedToSession: true };
  }

  // Only a proven email reaches here (`withProvenEmail`): an unverified claim never links nor refuses.
  const email = profileUser.emailVerified ? (profileUser.email?.toLowerCase() ?? null) : null;
  const sameEmail = email ? await claimProvenAddress(options, users, email) : null;
  if (sameEmail) {
    if (!provider.allowDangerousEmailAccountLinking) {
      throw new OAuthAccountNotLinked(
        "Another account already uses this email address. Sign in with that account first, then link this one.",
      );
    }
    await users.linkAccount(accountRow(provider, account, sameEmail.id));
    await events.linkAccount({ user: sameEmail, account, profile: profileUser });
    await tellOwner(options, request, sameEmail, "accountLinked");
    return { user: sameEmail, isNewUser: false };
  }

  return createAndLink(options, users, { provider, profileUser, account }, email);
}

/**
 * Creates the user and links the account. Two first sign-ins of the same account can race: the loser's
 * insert fails on a unique constraint (email, or provider + account id); it then removes what it
 * created and uses the winner's user, so one account always means one user.
 */
async function createAndLink(
  options: InternalOptions,
  users: UserStore,
  { provider, profileUser, account }: Pick<OAuthSignIn, "provider" | "profileUser" | "account">,
  email: string | null,
): Promise<{ user: AdapterUser; isNewUser: boolean }> {
  const key = { provider: account.provider, providerAccountId: account.providerAccountId };
  let created: AdapterUser | undefined;
  try {
    const { id: _providerId, ...fields } = profileUser;
    created = await users.createUser({ ...fields, id: crypto.randomUUID(), email, emailVerified: email ? new Date() : null });
    await users.linkAccount(accountRow(provider, account, created.id));
  } catch (error) {
    const winner = await users.getUserByAccount(key);
    if (!winner) throw error;
    if (created && created.id !== winner.id) await users.deleteUser?.(created.id);
    return { user: winner, isNewUser: false };
  }
  await options.events.createUser({ user: created });
  await options.events.linkAccount({ user: created, account, profile: profileUser });
  return { user: created, isNewUser: true };
}
