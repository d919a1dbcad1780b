/**
 * Adding or changing the signed-in user's email address (`POST <basePath>/account/email`,
 * `auth.api.changeEmail` / `addEmail`): the new address is proven by a link sent to it, and only then
 * becomes the user's `email` (with `emailVerified`). The previous address is told, with a link that
 * undoes the change for 7 days (email-revert.ts).
 *
 * - The answer is the same whether the new address is free or another account's: a free one gets the
 *   link, an owned one a note saying someone tried (it stays its owner's).
 * - Nothing is stored when the link is asked for (the link is sealed, see password-accounts/tokens.ts).
 * - The link works once, for the user who asked: it is confirmed while signed in to that account (a
 *   signed-out visitor is sent to sign in first), with a POST from its page, so a mail scanner's GET
 *   changes nothing.
 * - At confirmation the address is checked again: proven by another account since, the link is refused;
 *   held by a user who never proved it, it moves to this one ("proof wins", actions/proven-address.ts).
 *
 * @module account-lifecycle/email-change
 */

import { missingMethods } from "../../adapter/capabilities.js";
import { normalizeEmail } from "../../address/normalize.js";
import { MissingAdapterMethods, Verification } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { countVerificationMail } from "../../rate-limit/email.js";
import { signedInUser } from "../../session/signed-in-user.js";
import { mailSite, sendAccountMail } from "../../sign-in/account-mail.js";
import { openLink, sealLink, spendLink } from "../../sign-in/link-tokens.js";
import { notifyOwner } from "../../sign-in/notify-owner.js";
import { claimProvenAddress, provenHolder } from "../../sign-in/proven-address.js";
import type { Adapter } from "../../types/adapters.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { changeEmailInput, linkInput } from "./input.js";
import { addressTakenMail, confirmNewAddressMail } from "./mail.js";

type AddressStore = Required<Pick<Adapter, "getUser" | "getUserByEmail" | "updateUser" | "createVerificationToken">> &
  Pick<Adapter, "deleteSessionsByUserId">;

/** How long the revert link of an email change works: 7 days. */
export const REVERT_LINK_SECONDS = 7 * 24 * 60 * 60;

/** The revert link of `userId`'s change from `previousEmail` to `changedTo`, mailed to `previousEmail`. */
export async function revertLinkFor(options: InternalOptions, userId: string, previousEmail: string, changedTo: string): Promise<string> {
  const claims = { email: previousEmail, userId, changedTo, binding: "" as const };
  const token = await sealLink(options, "email-revert", claims, REVERT_LINK_SECONDS);
  return `${options.authUrl}/account/revert-email?${new URLSearchParams({ token })}`;
}

/** The adapter's methods for an address change, or `MissingAdapterMethods`. */
export function addressStore(options: InternalOptions): AddressStore {
  const adapter = options.adapter;
  const needed = ["getUser", "getUserByEmail", "updateUser", "createVerificationToken"] as const;
  const missing = adapter ? missingMethods(adapter, needed) : [...needed];
  if (!adapter || missing.length > 0) {
    throw new MissingAdapterMethods(`Changing an email address needs an adapter with: ${missing.join(", ")}.`);
  }
  return adapter as AddressStore;
}

function accountPage(options: InternalOptions, done: string): string {
  return `${options.authUrl}/account?done=${done}`;
}

/** POST /account/email (`email`): mails the link (or the note), answers the account page. */
export async function requestEmailChange(
  options: InternalOptions,
  request: RequestInternal,
  input: InputOf<typeof changeEmailInput>,
): Promise<ResponseInternal> {
  assertCsrf("email change", options.csrfTokenVerified);
  const store = addressStore(options);
  const user = await signedInUser(options, request, store);
  const email = normalizeEmail(input.email);
  await countVerificationMail(options, request, email, undefined);
  const owner = await provenHolder(store, email);
  if (owner && owner.id !== user.id) {
    await sendAccountMail(options, email, addressTakenMail(await mailSite(options, request)));
  } else {
    const claims = { email, userId: user.id, binding: "" as const };
    // The link works for an hour (written here, not as a module constant: see docs/testing.md on lazily loaded modules).
    const token = await sealLink(options, "email-change", claims, 60 * 60);
    const url = `${options.authUrl}/account/confirm-email?${new URLSearchParams({ token })}`;
    await sendAccountMail(options, email, confirmNewAddressMail(await mailSite(options, request), url));
  }
  return { redirect: accountPage(options, "email-sent") };
}

/** The email-change link of `token` for the signed-in user, or `Verification` (`SessionRequired` signed out). */
export async function liveEmailChangeLink(options: InternalOptions, request: RequestInternal, token: unknown) {
  const link = await openLink(options, "email-change", token);
  const store = addressStore(options);
  const user = await signedInUser(options, request, store);
  if (user.id !== link.userId) throw new Verification("Sign in to the account that asked for this address, then open the link again.");
  return { link, user, store };
}

/** POST /account/confirm-email (`token`): the new address becomes the user's. */
export async function confirmEmailChange(
  options: InternalOptions,
  request: RequestInternal,
  { token }: InputOf<typeof linkInput>,
): Promise<ResponseInternal> {
  assertCsrf("email confirmation", options.csrfTokenVerified);
  const { link, user, store } = await liveEmailChangeLink(options, request, token);
  const holder = await claimProvenAddress(options, store, link.email);
  if (holder && holder.id !== user.id) throw new Verification("This address belongs to another account now.");
  await spendLink(options, store, link);
  const updated = await store.updateUser({ id: user.id, email: link.email, emailVerified: new Date() });
  await options.events.updateUser({ user: updated });
  // This browser's session says the new address at once (a JWT carries it).
  const cookies = await options.sessionStrategy.refreshUser(options, request, updated);
  if (user.email && user.emailVerified && user.email !== link.email) {
    const revertUrl = await revertLinkFor(options, user.id, user.email, link.email);
    await notifyOwner(options, request, updated, { kind: "emailChanged", previousEmail: user.email, revertUrl });
  }
  return { redirect: accountPage(options, "email-changed"), cookies };
}
