/**
 * Undoing an email change from the previous address (`GET|POST <basePath>/account/revert-email`): the
 * notice of a change (notify.ts) carries a link (email-change.ts `revertLinkFor`), valid 7 days, that works
 * once and needs no session (a thief who changed the address holds the sessions; the owner holds the
 * mailbox). Redeemed, it:
 *
 * 1. gives the user their previous address back (proven: the link came to it), unless another account
 *    proved that address since (refused, `Verification`);
 * 2. makes the password unusable when the user has one: it is replaced by the hash of a random secret
 *    nobody knows. So a password the thief set or learnt no longer signs in, every password-reset link
 *    made before dies with it (a reset link is tied to the password it was asked under), and the next
 *    password sign-in needs a new password, chosen through "Forgot your password?" at the restored
 *    address (the page the link ends on says so, and links there). Other ways in (email link, OAuth,
 *    passkeys) are left as they are;
 * 3. ends every session of the user (this browser's too when it is theirs).
 *
 * A reset link made since the change went to the thief's address: it dies with the change back (a reset
 * link works only while the user's address is the one it was sent to). The token is the sealed link of
 * password-accounts/tokens.ts (nothing stored when it is made; its id is claimed once when redeemed): a
 * second use is `LinkAlreadyUsed`, an expired or altered one `Verification`. The GET shows a page whose
 * button POSTs, so a mail scanner's fetch spends nothing.
 *
 * @module account-lifecycle/email-revert
 */

import { LinkAlreadyUsed, Verification } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { html } from "../../pages/html.js";
import { loadPages } from "../../pages/lazy.js";
import { hashPassword } from "../../password.js";
import { isPasswordProvider } from "../../provider-kind.js";
import { endUserSessions } from "../../session/end-user-sessions.js";
import { openLink, spendLink } from "../../sign-in/link-tokens.js";
import { passwordAccountOf, passwordStore, storePasswordHash } from "../../sign-in/password-account.js";
import { claimProvenAddress } from "../../sign-in/proven-address.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import { addressStore } from "./email-change.js";
import type { linkInput } from "./input.js";

const NO_REFERRER = { "Referrer-Policy": "same-origin" };

function revertUrl(options: InternalOptions): string {
  return `${options.authUrl}/account/revert-email`;
}

/** GET /account/revert-email?token=: the page whose one button undoes the change (a refused link: the error page). */
export async function revertEmailPage(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  await openLink(options, "email-revert", request.query.token);
  const { renderConfirmEmailPage, text } = await loadPages(options.config, request.request, options.featureMessages);
  const page = await html(
    renderConfirmEmailPage({
      text,
      actionUrl: revertUrl(options),
      csrfToken: options.csrfToken,
      token: request.query.token ?? "",
      theme: options.theme,
      purpose: "revert",
    }),
  );
  return { ...page, headers: { ...page.headers, ...NO_REFERRER } };
}

/** Replaces the user's password, when they have one, with one nobody knows (see the module comment). */
async function retirePassword(options: InternalOptions, userId: string): Promise<void> {
  const provider = options.providers.find(isPasswordProvider);
  if (!provider) return;
  const store = passwordStore(options);
  if (!(await passwordAccountOf(store, provider, userId))) return;
  const unknown = crypto.getRandomValues(new Uint8Array(32)).join(".");
  await storePasswordHash(store, provider, userId, await hashPassword(unknown));
}

/** POST /account/revert-email (`token`): the previous address is back, the password retired, every session ended. */
export async function revertEmailChange(
  options: InternalOptions,
  request: RequestInternal,
  { token }: InputOf<typeof linkInput>,
): Promise<ResponseInternal> {
  assertCsrf("email change revert", options.csrfTokenVerified);
  const link = await openLink(options, "email-revert", token);
  const store = addressStore(options);
  const user = await store.getUser(link.userId);
  if (!user) throw new Verification("The account of this link no longer exists.");
  const holder = await claimProvenAddress(options, store, link.email);
  if (holder && holder.id !== user.id) throw new Verification("This address belongs to another account now.");
  await spendLink(options, store, link).catch((error: unknown) => {
    if (error instanceof Verification) throw new LinkAlreadyUsed("This link was used already: nothing changed this time.");
    throw error;
  });
  const restored = await store.updateUser({ id: user.id, email: link.email, emailVerified: new Date() });
  await options.events.updateUser({ user: restored });
  await retirePassword(options, user.id);
  const current = await options.sessionStrategy.currentSession(options, request);
  const cookies = current?.userId === user.id ? await options.sessionStrategy.end(options, request) : [];
  await endUserSessions(options, store, user.id);
  const page = `${options.authUrl}/verify-request?${new URLSearchParams({ type: "email-reverted" })}`;
  return { redirect: page, cookies };
}
