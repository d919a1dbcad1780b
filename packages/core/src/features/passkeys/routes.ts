/**
 * The signed-in user's passkeys, managed like any factor (docs/passkeys.md): `GET /passkeys` lists them
 * as JSON (name, registered, last used; never the public key or counter); `POST /passkeys/rename`
 * (`id`, `name`) renames one; `POST /passkeys/remove` (`id`) removes one unless it is the user's last way
 * to sign in. Both POSTs are CSRF-checked, and removing is an owner-present operation
 * (`sign-in/owner-present.ts`): the pipeline refuses a session without a recent sign-in before this code
 * runs. `auth.api.listPasskeys`, `renamePasskey` and `removePasskey` run these same routes in process,
 * and the account page's forms call them.
 *
 * A user only ever reaches their own passkeys: the id is looked up among the caller's, and one that is
 * not there is `PasskeyNotFound` whoever it belongs to.
 *
 * The last-way rule is checked before the removal and again after it, as unlinking an account does
 * (`actions/accounts.ts`): of two requests removing a user's last two ways in at once, the one that finds
 * none left puts its passkey back and is refused, so at least one way in always remains.
 */

import { missingMethods, type PasskeyStore, passkeyMethods } from "../../adapter/capabilities.js";
import { LastSignInMethod, MissingAdapterMethods, PasskeyNotFound, SessionRequired, UnknownAction } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { noStoreHeaders } from "../../http/response.js";
import { accountUrl } from "../../sign-in/account-form.js";
import { notifyOwner } from "../../sign-in/notify-owner.js";
import { countSignInWays } from "../../sign-in/ways-in.js";
import type { AdapterAuthenticator, AdapterUser } from "../../types/adapters.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { ListedPasskey } from "../../types/passkeys.js";
import { listedPasskey, passkeyName } from "../../webauthn/passkey-name.js";
import type { removeInput, renameInput } from "./input.js";

const json = { "Content-Type": "application/json", ...noStoreHeaders };

/**
 * The adapter's passkey methods (the wrapped adapter: a failure is `AdapterError`). `UnknownAction`
 * without a passkey provider, `MissingAdapterMethods` when the adapter lacks one of {@link passkeyMethods}.
 */
function requirePasskeys(options: InternalOptions): PasskeyStore {
  if (!options.providers.some((provider) => provider.type === "webauthn")) {
    throw new UnknownAction("No passkey provider is configured: there are no passkeys to manage.");
  }
  const adapter = options.adapter;
  const missing = adapter ? missingMethods(adapter, passkeyMethods) : [...passkeyMethods];
  if (missing.length > 0) {
    throw new MissingAdapterMethods(`Managing passkeys needs the adapter methods ${missing.join(", ")}.`);
  }
  return adapter as PasskeyStore;
}

/** The signed-in user (the adapter's, with either session strategy), or `SessionRequired`. */
async function callerUser(options: InternalOptions, request: RequestInternal): Promise<AdapterUser> {
  const user = await options.sessionStrategy.currentUser(options, request);
  if (!user?.id) throw new SessionRequired("Sign in first: the request has no session.");
  return user as AdapterUser;
}

/** The caller's passkeys, oldest first (as registered). */
async function passkeysOf(store: PasskeyStore, userId: string): Promise<AdapterAuthenticator[]> {
  const time = (a: AdapterAuthenticator) => (a.createdAt ? new Date(a.createdAt).getTime() : 0);
  return (await store.listAuthenticatorsByUserId(userId)).sort((a, b) => time(a) - time(b));
}

/** The caller's passkey `id` names, or `PasskeyNotFound` (another user's included). */
async function ownPasskey(store: PasskeyStore, id: string, userId: string): Promise<AdapterAuthenticator> {
  const found = id ? (await store.listAuthenticatorsByUserId(userId)).find((a) => a.credentialID === id) : undefined;
  if (!found) throw new PasskeyNotFound("No passkey of yours has this id: it was removed already, or never existed.");
  return found;
}

/** GET /passkeys: `{ passkeys }`, oldest first. */
export async function listPasskeysAction(
  options: InternalOptions,
  request: RequestInternal,
): Promise<ResponseInternal<{ passkeys: ListedPasskey[] }>> {
  const store = requirePasskeys(options);
  const user = await callerUser(options, request);
  const passkeys = (await passkeysOf(store, user.id)).map(listedPasskey);
  return { body: { passkeys }, headers: json };
}

/** POST /passkeys/rename: `{ passkey }`, renamed; `InvalidName`, `PasskeyNotFound`. */
export async function renamePasskeyAction(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof renameInput>,
): Promise<ResponseInternal<{ passkey: ListedPasskey }>> {
  assertCsrf("passkey rename", options.csrfTokenVerified);
  const store = requirePasskeys(options);
  const user = await callerUser(options, request);
  const target = await ownPasskey(store, input.id, user.id);
  const name = passkeyName(input.name);
  const renamed = await store.updateAuthenticator(target.credentialID, { name });
  if (!renamed) throw new PasskeyNotFound("No passkey of yours has this id: it was removed already.");
  return { body: { passkey: listedPasskey(renamed) }, headers: json };
}

/** POST /passkeys/remove: `{ removed: 1 }`, or a typed refusal that changed nothing. */
export async function removePasskeyAction(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof removeInput>,
): Promise<ResponseInternal<{ removed: number }>> {
  assertCsrf("passkey removal", options.csrfTokenVerified);
  const store = requirePasskeys(options);
  const user = await callerUser(options, request);
  const target = await ownPasskey(store, input.id, user.id);
  const last = () =>
    new LastSignInMethod("This is your last way to sign in: add another passkey, link an account or prove an address first.");
  const waysLeft = async () => countSignInWays(store, options.providers, user, await store.listAccountsByUserId(user.id));
  // The passkeys are counted by their authenticators: this one is among them until it is deleted.
  if ((await waysLeft()) <= 1) throw last();

  const removed = await store.deleteAuthenticator(target.credentialID);
  if (!removed) throw new PasskeyNotFound("No passkey of yours has this id: it was removed already.");
  if ((await waysLeft()) === 0) {
    // Put back as it was (an adapter that dates rows itself dates it anew).
    await store.createAuthenticator(removed);
    throw last();
  }
  const accounts = await store.listAccountsByUserId(user.id);
  const account = accounts.find((a) => a.type === "webauthn" && a.providerAccountId === removed.providerAccountId);
  if (account) await store.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
  await options.events.passkeyRemoved({ userId: user.id, passkey: listedPasskey(removed) });
  await notifyOwner(options, request, user, "passkeyRemoved");
  return { body: { removed: 1 }, headers: json };
}

/** The account page's rename form: back to the page with what happened. */
export async function renamePasskeyForm(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof renameInput>,
): Promise<ResponseInternal> {
  await renamePasskeyAction(options, request, input);
  return { redirect: `${accountUrl(options)}?done=passkey-renamed` };
}

/** The account page's remove form (owner-present: a refusal sends the browser to sign in again and back). */
export async function removePasskeyForm(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof removeInput>,
): Promise<ResponseInternal> {
  await removePasskeyAction(options, request, input);
  return { redirect: `${accountUrl(options)}?done=passkey-removed` };
}
