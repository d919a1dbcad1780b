/**
 * Email address normalisation for sign-in. Canonicalise first (NFKC, trim, lower case), then validate
 * the canonical form, so that look-alike characters cannot slip through a check and become dangerous
 * afterwards (fullwidth `＠` U+FF20 and small `﹫` U+FE6B turn into `@` under NFKC: GHSA-7rqj-j65f-68wh).
 * Lists, quotes, comments, several `@` and anything a mailer could read as more than one recipient are
 * refused (CVE-2022-35924), as is anything the mail library might parse differently from us.
 */
import { EmailSignInError } from "../errors.js";

/** The longest address SMTP allows. */
const MAX_LENGTH = 254;
/** Local part: dot-atom characters only (RFC 5322 atext), no leading/trailing/double dots. */
const localPart = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** Domain: LDH labels (IDNs must arrive as punycode or be converted by the URL parser below). */
const domainLabel = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Thrown for an address authlib will not send a sign-in link to (shown on the sign-in page as EmailSignInError). */
export class InvalidEmailAddress extends EmailSignInError {
  override code = "invalid-address" as const;
}

/**
 * The canonical form of `input`: NFKC-normalised, trimmed, lower-cased, with an ASCII (punycode)
 * domain. Throws `InvalidEmailAddress` for anything that is not exactly one plain address.
 */
export function normalizeEmail(input: unknown): string {
  if (typeof input !== "string" || input.trim() === "") throw new InvalidEmailAddress("Missing email address.");
  const canonical = input.normalize("NFKC").trim().toLowerCase();
  if (canonical.length > MAX_LENGTH) throw new InvalidEmailAddress("Email address too long.");
  // Control characters, whitespace, and the characters of lists, groups, comments and quoting.
  if (/[\s\p{C},;:"()<>[\]\\]/u.test(canonical)) throw new InvalidEmailAddress("Invalid email address format.");
  const parts = canonical.split("@");
  if (parts.length !== 2) throw new InvalidEmailAddress("Invalid email address format.");
  // Stryker disable next-line StringLiteral: equivalent, the defaults are never used (exactly two parts, checked above); they only type the parts as strings
  const [local = "", domain = ""] = parts;
  if (!local || local.length > 64 || !localPart.test(local)) throw new InvalidEmailAddress("Invalid email address format.");
  return `${local}@${asciiDomain(domain)}`;
}

function asciiDomain(domain: string): string {
  if (!/^[\p{L}\p{N}\p{M}.-]+$/u.test(domain)) throw new InvalidEmailAddress("Invalid email domain.");
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
