/**
 * Linked accounts of the signed-in user (docs/accounts.md): `GET /accounts` lists them as JSON (never
 * their tokens); `POST /accounts/unlink` (CSRF-checked) removes one (`provider`, `providerAccountId`)
 * unless it is the user's last way to sign in (`accounts/sign-in-ways.ts`). `auth.api.listAccounts` and
 * `unlinkAccount` run these same routes in process.
 *
 * A user only ever reaches their own accounts: the account to unlink is looked up among the caller's, and
 * one that is not there is `AccountNotFound` whoever it belongs to. Passkeys are listed but not unlinked
 * here (`InvalidAccount`): removing a passkey is the passkeys' own operation.
 *
 * The last-way rule is checked before the removal and again after it: two requests unlinking a user's
 * last two accounts at once can each see the other still linked, and the one that finds none left puts
 * its account back and is refused, so at least one way in always remains.
 */

import { missingMethods } from "../../adapter/capabilities.js";
import { AccountNotFound, AccountsUnavailable, InvalidAccount, LastSignInMethod, SessionRequired } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { noStoreHeaders } from "../../http/response.js";
import { notifyOwner } from "../../sign-in/notify-owner.js";
import { isSecondFactorRow } from "../../sign-in/second-factor-row.js";
import { countSignInWays, isWayIn } from "../../sign-in/ways-in.js";
import type { LinkedAccountMethod, LinkedAccountStore } from "../../types/adapter-capabilities.js";
import type { AdapterAccount } from "../../types/adapters.js";
import type { User } from "../../types/base.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { LinkedAccount } from "../../types/linked-accounts.js";
import type { InputOf } from "../../types/operation.js";
import type { unlinkInput } from "./input.js";

const json = { "Content-Type": "application/json", ...noStoreHeaders };

/** The methods the account routes need (checked here, not at start-up: only these routes use them). */
const linkedAccountMethods: readonly LinkedAccountMethod[] = ["listAccountsByUserId", "unlinkAccount", "linkAccount"];

/** The adapter's linked-account methods (the wrapped adapter: a failure is `AdapterError`), or `AccountsUnavailable`. */
function requireAccounts(options: InternalOptions): LinkedAccountStore {
  const adapter = options.adapter;
  if (adapter && missingMethods(adapter, linkedAccountMethods).length === 0) return adapter as LinkedAccountStore;
  throw new AccountsUnavailable(
    options.adapter
      ? "The adapter has no listAccountsByUserId, unlinkAccount or linkAccount: linked accounts cannot be listed or unlinked with it."
      : "Linked accounts live in the database: configure an adapter to list and unlink them.",
  );
}

/** The signed-in user (the adapter's, with either session strategy), or `SessionRequired`. */
async function callerUser(options: InternalOptions, request: RequestInternal): Promise<User & { id: string }> {
  const user = await options.sessionStrategy.currentUser(options, request);
  if (!user?.id) throw new SessionRequired("Sign in first: the request has no session.");
  return user as User & { id: string };
}

/** An account row as the listing shows it: only what names it, never its tokens. */
export function linkedAccount(account: AdapterAccount): LinkedAccount {
  return { provider: account.provider, type: account.type, providerAccountId: account.providerAccountId };
}

/** GET /accounts: `{ accounts }`, in the adapter's order. */
export async function listAccountsAction(
  options: InternalOptions,
  request: RequestInternal,
): Promise<ResponseInternal<{ accounts: LinkedAccount[] }>> {
  const store = requireAccounts(options);
  const user = await callerUser(options, request);
  // The second-factor row is no way to sign in, and no account to show.
  const accounts = (await store.listAccountsByUserId(user.id)).filter((account) => !isSecondFactorRow(account)).map(linkedAccount);
  return { body: { accounts }, headers: json };
}

/** POST /accounts/unlink: `{ unlinked: 1 }`, or a typed refusal that changed nothing. */
export async function unlinkAction(
  options: InternalOptions,
  request: RequestInternal,
  { provider, providerAccountId }: InputOf<typeof unlinkInput>,
): Promise<ResponseInternal<{ unlinked: number }>> {
  assertCsrf("account unlink", options.csrfTokenVerified);
  const store = requireAccounts(options);
  const user = await callerUser(options, request);
  if (provider === "" || providerAccountId === "")
    throw new InvalidAccount("Name the account to unlink: `provider` and `providerAccountId`.");
  const accounts = await store.listAccountsByUserId(user.id);
  const target = accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId);
  if (!target) throw new AccountNotFound("No account of yours is linked with this provider and id.");
  if (target.type === "webauthn") throw new InvalidAccount("A passkey is not unlinked: remove it with the passkey operations.");
  // The second factor's row is no linked account: only its own feature (a recent sign-in and a code) turns it off.
  if (isSecondFactorRow(target)) throw new AccountNotFound("No account of yours is linked with this provider and id.");
  const last = () =>
    new LastSignInMethod("This is your last way to sign in: link another account, add a passkey or prove an address first.");
  const others = accounts.filter((a) => a !== target);
  const counts = isWayIn(target, options.providers);
  if (counts && (await countSignInWays(store, options.providers, user, others)) === 0) throw last();

  await store.unlinkAccount({ provider, providerAccountId });
  if (counts) {
    const left = await store.listAccountsByUserId(user.id);
    if ((await countSignInWays(store, options.providers, user, left)) === 0) {
      await store.linkAccount(target);
      throw last();
    }
  }
  await options.events.accountUnlinked({ userId: user.id, account: linkedAccount(target) });
  await notifyOwner(options, request, { id: user.id, email: user.email }, "accountUnlinked");
  return { body: { unlinked: 1 }, headers: json };
}
