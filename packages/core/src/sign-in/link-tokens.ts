/**
 * The links of the account flows (sign-up verification, password reset, email change and its revert) carry their whole state in a
 * sealed token: a JWE (`dir` + A256CBC-HS512, the session tokens' format) encrypted with the secret under
 * a salt of its own, so a session token, a check cookie or the other kind of link never opens as one
 * (token confusion). Nothing is stored when a link is asked for: an anonymous caller makes authlib keep no
 * state. A link is spent when it is redeemed: its id is claimed once in the adapter's verification tokens
 * (`createVerificationToken` refuses a second live copy), so of any number of concurrent redemptions
 * exactly one goes through, and the claim expires (and is swept) with the link.
 *
 * What each link binds:
 * - `binding`: the browser that asked for it (a hash of its CSRF token, see http/flow-binding.ts). A
 *   reset link works only there; a sign-up link opened elsewhere still proves the address but signs
 *   nobody in, so a link made by someone else cannot sign a victim's browser into their account.
 * - reset links: the user, and a fingerprint of the password they had when the link was asked for. Once
 *   the password changes (this link, another one, a change), every older link is dead.
 *
 * @module password-accounts/tokens
 */

import { hmacHex } from "../crypto/digest.js";
import { Verification } from "../errors.js";
import { bindingMatches } from "../http/flow-binding.js";
import { decode, encode } from "../jwt.js";
import type { Adapter } from "../types/adapters.js";
import type { InternalOptions } from "../types/internal.js";

/** What a sign-up link carries: the account to create once the address is proven. */
export interface SignUpClaims {
  email: string;
  name: string | null;
  /** The scrypt hash of the chosen password (the password itself is never kept). */
  hash: string;
  binding: string;
  callbackUrl: string;
}

/** What a reset link carries. */
export interface ResetClaims {
  email: string;
  userId: string;
  /** {@link passwordFingerprint} of the password the user had when the link was asked for. */
  fingerprint: string;
  binding: string;
  callbackUrl: string;
}

/** What an email-change link carries: the user and the new address (`binding` is empty: the user must be signed in). */
export interface EmailChangeClaims {
  email: string;
  userId: string;
  binding: "";
}

/**
 * What the revert link of an email change carries (mailed to the previous address): the user, the
 * address to give back (`email`) and the one it was changed to.
 */
export interface EmailRevertClaims {
  email: string;
  userId: string;
  changedTo: string;
  binding: "";
}

/** What a recovery link carries (`recovery.ts`): the address whose owner it lets in (`binding` is empty: any browser). */
export interface RecoveryClaims {
  email: string;
  binding: "";
}

type LinkKind = "sign-up" | "reset" | "email-change" | "email-revert" | "recovery";
type ClaimsOf<K extends LinkKind> = K extends "sign-up"
  ? SignUpClaims
  : K extends "reset"
    ? ResetClaims
    : K extends "email-change"
      ? EmailChangeClaims
      : K extends "recovery"
        ? RecoveryClaims
        : EmailRevertClaims;

/** The longest token a link may carry (the body of a request is bounded anyway). */
const MAX_TOKEN_LENGTH = 8192;

const SALT: Record<LinkKind, string> = {
  "sign-up": "authlib.password-sign-up",
  reset: "authlib.password-reset",
  "email-change": "authlib.email-change",
  "email-revert": "authlib.email-revert",
  recovery: "authlib.password-recovery",
};

/** The sealed link token of `claims`, valid `maxAge` seconds. */
export function sealLink<K extends LinkKind>(options: InternalOptions, kind: K, claims: ClaimsOf<K>, maxAge: number): Promise<string> {
  return encode({ token: { ...claims }, secret: options.secret, salt: SALT[kind], maxAge });
}

/** An opened link: its claims, its id and when it expires (ms). */
export type OpenedLink<K extends LinkKind> = ClaimsOf<K> & { id: string; expiresAt: number };

/** The claims of a link token of `kind`, or `Verification` (not ours, tampered with, of another kind, expired). */
export async function openLink<K extends LinkKind>(options: InternalOptions, kind: K, token: unknown): Promise<OpenedLink<K>> {
  // A link's token is a few hundred characters; a longer one is not ours, and is not decrypted.
  const readable = typeof token === "string" && token.length <= MAX_TOKEN_LENGTH;
  const payload = readable
    ? await decode<Record<string, unknown>>({ token, secret: options.secret, salt: SALT[kind] }).catch(() => null)
    : null;
  const { jti, exp, email, binding } = payload ?? {};
  if (typeof jti !== "string" || typeof exp !== "number" || typeof email !== "string" || typeof binding !== "string") {
    throw new Verification("The link is not valid or has expired. Ask for a new one.");
  }
  return { ...(payload as unknown as ClaimsOf<K>), id: jti, expiresAt: exp * 1000 };
}

/** Refuses (`Verification`) a link opened in a browser other than the one that asked for it. */
export function assertSameBrowser(link: { binding: string }, currentBinding: string): void {
  if (!bindingMatches(link.binding, currentBinding)) {
    throw new Verification("Open the link in the browser where you asked for it (this one did not).");
  }
}

/** Spends the link: the first redemption claims it, every later one (or a concurrent loser) is `Verification`. */
export async function spendLink(
  options: InternalOptions,
  store: Pick<Adapter, "createVerificationToken">,
  link: OpenedLink<LinkKind>,
): Promise<void> {
  const key = await hmacHex(options.secret[0] as string, `authlib.password-link:${link.id}`);
  const claimed = await store.createVerificationToken?.({ identifier: link.email, token: key, expires: new Date(link.expiresAt) });
  if (!claimed) throw new Verification("The link was used already. Ask for a new one if you need it.");
}

/** A fingerprint of the user's current password hash (`none` without one): what a reset link is tied to. */
export function passwordFingerprint(options: InternalOptions, hash: string | undefined): string | Promise<string> {
  return hmacHex(options.secret[0] as string, `authlib.password-fingerprint:${hash ?? "none"}`);
}
