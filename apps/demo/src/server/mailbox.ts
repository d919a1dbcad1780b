/**
 * The mails the demo's dev SMTP server received, kept in memory (newest first) for the /dev/mailbox
 * page. Each mail is reduced to what the page shows; the sign-in link is taken from the text part.
 */
import type { AddressObject, ParsedMail } from "mailparser";

/** A received mail, as /dev/mailbox shows it. */
export interface MailboxEntry {
  /** Position in the mailbox, counting from 1 since the server started. */
  id: number;
  /** When the SMTP server received it (ISO 8601). */
  receivedAt: string;
  /** The mail's own Date header (ISO 8601), when it has one. */
  date: string | null;
  subject: string;
  from: string;
  to: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part, untrusted: only ever shown in a sandboxed frame. */
  html: string | null;
  /** The sign-in link found in the text part, when there is one. */
  signInLink: string | null;
  /** The one-time sign-in code of the text part, when there is one. */
  code: string | null;
  /** What kind of mail it is, read off its link: the page's label and the link's words. */
  kind: MailKind;
}

/** What a mail is for, as the mailbox labels it. */
export interface MailKind {
  /** The label above the mail ("Sign-in link", "Password reset", …). */
  label: string;
  /** The words of its link ("Open the sign-in link"). */
  action: string;
}

/** Each kind of authlib's mails by the path its link ends with (the first match wins). */
const KINDS: ReadonlyArray<[suffix: string, kind: MailKind]> = [
  ["/callback/", { label: "Sign-in link", action: "Open the sign-in link" }],
  ["/password/verify", { label: "Confirm your address (sign-up)", action: "Open the confirmation link" }],
  ["/password/reset", { label: "Password reset", action: "Open the reset link" }],
  ["/password/unlock", { label: "A way back in (this device)", action: "Open the device link" }],
  ["/password/sign-up", { label: "Password reset, no account", action: "Open the sign-up page" }],
  ["/password/forgot", { label: "Password changed", action: "Open the reset page" }],
  ["/account/confirm-email", { label: "Confirm a new address", action: "Open the confirmation link" }],
  ["/account/revert-email", { label: "Address changed", action: "Open the undo link" }],
  ["/signin", { label: "Account exists already", action: "Open the sign-in page" }],
  ["/account", { label: "Sign-in change notice", action: "Open the account page" }],
];

/** The kind of a mail whose link is `link` (`null`: a notice without a link). */
export function mailKindOf(link: string | null): MailKind {
  if (link === null) return { label: "Notice", action: "" };
  const path = new URL(link).pathname;
  const found = KINDS.find(([suffix]) => (suffix.endsWith("/") ? path.includes(suffix) : path.endsWith(suffix)));
  return found?.[1] ?? { label: "Mail with a link", action: "Open the link" };
}

const MAX_MAILS = 100;

/** Joins one or several parsed address headers into one line. */
function addressText(addresses: AddressObject | AddressObject[] | undefined): string {
  if (!addresses) return "";
  return (Array.isArray(addresses) ? addresses : [addresses]).map((address) => address.text).join(", ");
}

/**
 * The sign-in link of a mail's text part: the first http(s) URL leading to an authlib callback, else the
 * first http(s) URL at all. Anything that does not parse as an http(s) URL is ignored, so the page never
 * renders a `javascript:` or other scheme as a link.
 */
export function findSignInLink(text: string): string | null {
  const links: string[] = [];
  for (const [candidate] of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") links.push(url.href);
    } catch {
      // Not a URL after all.
    }
  }
  return links.find((link) => new URL(link).pathname.includes("/callback/")) ?? links[0] ?? null;
}

/** The in-memory mailbox of the dev SMTP server. */
export class DevMailbox {
  readonly #entries: MailboxEntry[] = [];
  #counter = 0;

  /** Adds a parsed mail; the oldest drop off past 100. */
  add(mail: ParsedMail): MailboxEntry {
    const text = mail.text ?? "";
    const entry: MailboxEntry = {
      id: ++this.#counter,
      receivedAt: new Date().toISOString(),
      date: mail.date ? mail.date.toISOString() : null,
      subject: mail.subject ?? "(no subject)",
      from: addressText(mail.from),
      to: addressText(mail.to),
      text,
      html: typeof mail.html === "string" ? mail.html : null,
      signInLink: findSignInLink(text),
      kind: mailKindOf(findSignInLink(text)),
      code: text.match(/asked to sign in: (\d{6,8})/)?.[1] ?? null,
    };
    this.#entries.unshift(entry);
    this.#entries.length = Math.min(this.#entries.length, MAX_MAILS);
    return entry;
  }

  /** The mails, newest first. */
  list(): MailboxEntry[] {
    return this.#entries.slice();
  }
}
