/**
 * Email address normalisation for sign-in: the one canonical form of an address, used to look its account
 * up and to key every limit that counts an address (the credentials lockout, the mail limits), so that
 * no spelling of an address reaches its account under a count of its own.
 *
 * Canonicalise first, then validate the canonical form, so that look-alike characters cannot slip through a
 * check and become dangerous afterwards (fullwidth `＠` U+FF20 and small `﹫` U+FE6B turn into `@` under
 * NFKC: GHSA-7rqj-j65f-68wh). Canonical is the UTS #46 (IDNA) mapping of every code point, in the local
 * part as in the domain, exactly as the URL parser maps a domain (NFKC where it refuses one): the "ignored"
 * ones (variation selectors, U+034F, U+180B–U+180D, the soft hyphen, …) are dropped and the "mapped" ones
 * replaced. So
 * `victim@e\uFE00xample.com` and `vic\u00ADtim@example.com` are `victim@example.com`, not fresh lockout keys.
 * Lists, quotes, comments, several `@` and anything a mailer could read as more than one recipient are
 * refused (CVE-2022-35924), as is anything the mail library might parse differently from us.
 */
import { EmailSignInError } from "../errors.js";

/** The longest address SMTP allows. */
const MAX_LENGTH = 254;
/** The longest text {@link canonicalText} maps code point by code point. */
const MAX_MAPPED_LENGTH = 1024;
/** Local part: dot-atom characters only (RFC 5322 atext), no leading/trailing/double dots. */
const localPart = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** Domain: LDH labels (an IDN is converted to punycode by the URL parser below). */
const domainLabel = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Thrown for an address authlib will not send a sign-in link to (shown on the sign-in page as EmailSignInError). */
export class InvalidEmailAddress extends EmailSignInError {
  override code = "invalid-address" as const;
}

/**
 * `char` (one code point, not ASCII) in canonical form. The runtime's URL parser applies UTS #46 (IDNA) to
 * it between two `x`s: an ignored code point leaves `xx`, a mapping to ASCII `x…x`; a code point it keeps
 * or maps to other non-ASCII text gives punycode (`xn--…`), and `char` stays as it is (a domain's own
 * parse maps it the same way later; a local part refuses it). A code point the parser refuses (fullwidth
 * `＠`, which maps to a character no host may hold) is NFKC-normalised instead.
 */
function canonicalCodePoint(char: string): string {
  let host: string;
  try {
    host = new URL(`http://x${char}x`).hostname;
  } catch {
    return char.normalize("NFKC");
  }
  return host.startsWith("xn--") ? char : host.slice(1, -1);
}

/**
 * `input` in canonical form without any check: each non-ASCII code point mapped (see
 * {@link canonicalCodePoint}), default-ignorable code points dropped, trimmed and lower-cased. What
 * {@link normalizeEmail} validates, and what a limit keys an identifier that is not an address by (a
 * login name), so both spell a name the same way.
 */
export function canonicalText(input: string): string {
  // Mapping costs a parse per non-ASCII code point: a text longer than any address with room for invisible
  // code points is keyed as typed (NFKC, lower case), and is no address (longer than 254 that way too).
  if (input.length > MAX_MAPPED_LENGTH) return input.normalize("NFKC").trim().toLowerCase();
  let mapped = "";
  for (const char of input) mapped += char < "\u0080" ? char : canonicalCodePoint(char);
  // Default-ignorable code points go whatever the runtime's IDNA version says of them (newer versions
  // ignore the Hangul fillers and invisible operators an older table refuses); the joiners stay, as UTS #46
  // keeps them (deviations), and so do the bidi controls, which it disallows: the checks after refuse both.
  return mapped
    .replace(/(?!\u200c|\u200d|\p{Bidi_Control})\p{Default_Ignorable_Code_Point}/gu, "")
    .trim()
    .toLowerCase();
}

/**
 * The canonical form of `input`: {@link canonicalText}, then checked to be exactly one plain address, with
 * an ASCII (punycode) domain. Throws `InvalidEmailAddress` for anything that is not exactly one plain
 * address. The account lookup and every limit keyed by an address use this function.
 */
export function normalizeEmail(input: unknown): string {
  if (typeof input !== "string" || input.trim() === "") throw new InvalidEmailAddress("Missing email address.");
  const canonical = canonicalText(input);
  if (canonical.length > MAX_LENGTH) throw new InvalidEmailAddress("Email address too long.");
  // Control characters, whitespace, and the characters of lists, groups, comments and quoting.
  if (/[\s\p{C},;:"()<>[\]\\]/u.test(canonical)) throw new InvalidEmailAddress("Invalid email address format.");
  const parts = canonical.split("@");
  if (parts.length !== 2) throw new InvalidEmailAddress("Invalid email address format.");
  const [local = "", domain = ""] = parts;
  if (!local || local.length > 64 || !localPart.test(local)) throw new InvalidEmailAddress("Invalid email address format.");
  return `${local}@${asciiDomain(domain)}`;
}

/**
 * The canonical form of an account name: {@link normalizeEmail} when it is an address, else
 * {@link canonicalText} (a login name). What the credentials limits key an account by.
 */
export function canonicalAccountName(input: string): string {
  try {
    return normalizeEmail(input);
  } catch {
    return canonicalText(input);
  }
}

function asciiDomain(domain: string): string {
  // ASCII other than letters, digits, dots and hyphens never reaches the URL parser (it would read `%`,
  // `/`, `?` or `#` as URL syntax); what is left of Unicode it maps and converts.
  // Of ASCII, only letters, digits, dots and hyphens reach the URL parser (it would read `%`, `/`, `?` or
  // `#` as URL syntax); the rest of Unicode it maps (UTS #46) and converts, and the labels are checked after.
  if (!/^(?:[a-z0-9.-]|[^\0-\x7f])+$/u.test(domain)) throw new InvalidEmailAddress("Invalid email domain.");
  let ascii: string;
  try {
    // The URL parser applies IDNA (UTS #46), turning a Unicode domain into punycode.
    ascii = new URL(`http://${domain}`).hostname;
  } catch {
    throw new InvalidEmailAddress("Invalid email domain.");
  }
  const labels = ascii.split(".");
  if (labels.length < 2 || labels.some((label) => !domainLabel.test(label))) throw new InvalidEmailAddress("Invalid email domain.");
  if (/^\d+$/.test(labels[labels.length - 1] as string)) throw new InvalidEmailAddress("Invalid email domain.");
  return ascii;
}
