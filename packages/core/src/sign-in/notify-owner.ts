/**
 * Telling the owner: every change to how someone signs in to an account, or recovers it, mails the
 * account's address, so that a change made with a stolen session does not go unseen. One function,
 * {@link notifyOwner}, called where each change is made (after it is made):
 *
 * | change | called from |
 * |---|---|
 * | `passkeyAdded` | a signed-in user's passkey registration (actions/webauthn.ts) |
 * | `passkeyRemoved` | passkey removal (the passkey management operations) |
 * | `emailChanged` | email-change confirmation (email-change.ts): to the **previous** address, with the revert link (email-revert.ts) |
 * | `passwordSet`, `passwordChanged` | password reset and change (password-accounts/routes.ts) |
 * | a feature's own changes | the feature, where it makes each (its texts: `mail.change.<change>`) |
 * | `accountLinked`, `accountUnlinked` | linking an OAuth account to an existing user (link-account.ts), unlinking (accounts.ts) |
 * | `otherSessionsEnded` | "sign out everywhere else" (actions/sessions.ts) |
 *
 * The mail goes through the account mails' transport (email/account-mail.ts), in the language of the
 * request that made the change. It never holds a secret: it says what changed, and links to the account
 * page (and, for an email change, to the single-use revert link). Without a configured mailer, or for a
 * user without an address, nothing is sent. Sending never fails the change: the change is made already,
 * and a failure is logged by the error's name and SMTP response code only (an SMTP refusal's text can
 * quote the address).
 *
 * @module account-lifecycle/notify
 */

import { hostHeading, type RenderedMail, renderMail, textOf } from "../email/template.js";
import { EmailSignInError } from "../errors.js";
import type { MessageKey } from "../types/i18n.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import { accountMailer, type MailSite, mailSite } from "./account-mail.js";
import { passwordChangedMail } from "./password-mail.js";
import { passwordUrl } from "./urls.js";

/** The parts of every change notice, which are no change of their own. */
type NoticePart = "subject" | "heading" | "button" | "notYou";

/**
 * A change whose notice says only what happened (see the module comment for where each is made): each one
 * that has its sentence in the catalog (`mail.change.<change>`, a feature's among its own texts), and
 * `passwordChanged`, which has a mail of its own.
 */
export type SignInChange =
  | "passwordChanged"
  | Exclude<{ [K in MessageKey]: K extends `mail.change.${infer C}` ? C : never }[MessageKey], NoticePart>;

/**
 * The address changed: the notice goes to `previousEmail` (the user's `email` is the new one already)
 * and carries `revertUrl`, the single-use link that gives the address back (see email-revert.ts).
 */
export interface EmailChanged {
  kind: "emailChanged";
  previousEmail: string;
  revertUrl: string;
}

/** Every change the owner is told of: a closed list, so that each has its own text in every language. */
export type OwnerChange = SignInChange | EmailChanged;

/**
 * The user told: their id, and their address when the caller has it. `email` left out (`undefined`)
 * is read from the adapter; `null` means the user has no address, and nobody is told.
 */
export interface Owner {
  id: string;
  email?: string | null;
}

/** The notice of a change: what happened, and the way to the account page. */
export function signInChangeMail(site: MailSite, change: Exclude<SignInChange, "passwordChanged">, accountUrl: string): RenderedMail {
  const text = textOf(site);
  return renderMail({
    subject: text.t("mail.change.subject", { host: site.host }),
    heading: hostHeading(text.t("mail.change.heading"), site.host),
    action: { label: text.t("mail.change.button"), url: accountUrl },
    notes: [text.t(`mail.change.${change}`), text.t("mail.change.notYou")],
    theme: site.theme,
    text,
  });
}

/** The notice to the previous address of an email change, with the link that undoes it. */
export function addressChangedMail(site: MailSite, revertUrl: string): RenderedMail {
  const text = textOf(site);
  return renderMail({
    subject: text.t("mail.addressChanged.subject", { host: site.host }),
    heading: hostHeading(text.t("mail.addressChanged.heading"), site.host),
    action: { label: text.t("mail.addressChanged.button"), url: revertUrl },
    notes: [text.t("mail.addressChanged.note"), text.t("mail.addressChanged.undo")],
    theme: site.theme,
    text,
  });
}

function noticeOf(options: InternalOptions, site: MailSite, change: OwnerChange): RenderedMail {
  if (typeof change === "object") return addressChangedMail(site, change.revertUrl);
  if (change === "passwordChanged") return passwordChangedMail(site, passwordUrl(options, "forgot"));
  return signInChangeMail(site, change, `${options.authUrl}/account`);
}

/** The address to tell, or `undefined` for nobody. */
async function recipientOf(options: InternalOptions, owner: Owner, change: OwnerChange): Promise<string | undefined> {
  if (typeof change === "object") return change.previousEmail;
  const email = owner.email === undefined ? (await options.adapter?.getUser?.(owner.id))?.email : owner.email;
  return email ?? undefined;
}

/** What a failed send leaves in the log: the error's name and an SMTP response code, never its text. */
function failureOf(change: OwnerChange, error: unknown): EmailSignInError {
  const name = error instanceof Error ? error.name : "Error";
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  const response = typeof code === "number" ? `, response code ${code}` : "";
  const kind = typeof change === "object" ? change.kind : change;
  return new EmailSignInError(`The notice of a sign-in change (${kind}) could not be sent to its owner (${name}${response}).`);
}

/**
 * Tells `user`'s owner, by mail, that `change` was made (call it once the change is stored). Resolves
 * in every case: without a mailer or an address nothing is sent, and a failure to send is logged, never
 * thrown (the change stands). Passkey removal calls it as
 * `await notifyOwner(options, request, { id: userId }, "passkeyRemoved")`.
 */
export async function notifyOwner(options: InternalOptions, request: RequestInternal, user: Owner, change: OwnerChange): Promise<void> {
  try {
    const send = accountMailer(options.providers);
    const to = send ? await recipientOf(options, user, change) : undefined;
    if (!send || !to) return;
    await send({ to, ...noticeOf(options, await mailSite(options, request), change) });
  } catch (error) {
    options.logger.error(failureOf(change, error));
  }
}
