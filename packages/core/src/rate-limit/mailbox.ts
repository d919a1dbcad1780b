/**
 * The mailbox a sign-in mail lands in, as the limit on sign-in mails counts it. Many addresses reach the
 * same inbox: `Bomb+1@Gmail.com`, `b.o.m.b@googlemail.com` and `bomb@gmail.com` are one mailbox, so they
 * must share one count, or an attacker bombs an inbox by varying the address.
 *
 * The rules (applied to the address `normalizeEmail` accepts):
 * - case does not matter (mail providers ignore it in practice);
 * - a `+tag` is cut from the local part, for every domain (sub-addressing is common, and counting two
 *   mailboxes as one only makes the limit stricter);
 * - for the domains in {@link DOT_INSENSITIVE_DOMAINS} dots in the local part are dropped, and
 *   `googlemail.com` counts as `gmail.com`.
 *
 * The address the mail is sent to is never changed: this is only the key of the count.
 *
 * @module rate-limit/mailbox
 */
import { normalizeEmail } from "../address/normalize.js";

/** Domains whose mail service ignores dots in the local part (Google's consumer mail). */
export const DOT_INSENSITIVE_DOMAINS: ReadonlySet<string> = new Set(["gmail.com", "googlemail.com"]);

/** Domains that deliver to another domain's mailboxes: `googlemail.com` is `gmail.com`. */
const DOMAIN_ALIASES: Readonly<Record<string, string>> = { "googlemail.com": "gmail.com" };

/**
 * The delivery-canonical mailbox of `address`: lower case, `+tag` cut, dots dropped for
 * {@link DOT_INSENSITIVE_DOMAINS}. An identifier that is not an email address (an app's own
 * `normalizeIdentifier` may allow those) is returned as it is.
 */
export function deliveryMailbox(address: string): string {
  let normalized: string;
  try {
    normalized = normalizeEmail(address);
  } catch {
    return address;
  }
  const at = normalized.lastIndexOf("@");
  const domain = normalized.slice(at + 1);
  let local = normalized.slice(0, at);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOT_INSENSITIVE_DOMAINS.has(domain)) local = local.replaceAll(".", "");
  return `${local}@${Object.hasOwn(DOMAIN_ALIASES, domain) ? DOMAIN_ALIASES[domain] : domain}`;
}
