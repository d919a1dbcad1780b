/**
 * PKCE (RFC 7636) for the authorization server: the shapes of a code verifier and of an S256 challenge,
 * and the check at the token endpoint.
 *
 * Only `S256` exists here. The `plain` method (challenge = verifier) is not offered: OAuth 2.1 keeps it only
 * for clients that cannot hash, every client can, and a `plain` challenge is the verifier itself, so
 * whoever sees the authorization request (a log, a referrer, the browser history) can redeem the code. The
 * authorization endpoint refuses `code_challenge_method` other than `S256`.
 *
 * @module features/authorization-server/pkce
 */
import { timingSafeEqual } from "../../crypto/compare.js";

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/**
 * An S256 challenge is the base64url (no padding) of a SHA-256: 32 bytes are 43 characters, and the last
 * one carries 4 bits and 2 zero bits, so it is one of 16 characters. Anything else is no SHA-256.
 */
const CHALLENGE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

const encoder = new TextEncoder();

/** True when `value` is a well-formed code verifier (RFC 7636 §4.1: 43–128 of `A-Z a-z 0-9 - . _ ~`). */
export function isPkceVerifier(value: unknown): value is string {
  return typeof value === "string" && VERIFIER.test(value);
}

/** True when `value` is a well-formed S256 code challenge: the 43-character base64url of a SHA-256. */
export function isPkceChallenge(value: unknown): value is string {
  return typeof value === "string" && CHALLENGE.test(value);
}

/** The S256 challenge of `verifier`: `BASE64URL(SHA-256(ASCII(verifier)))` (RFC 7636 §4.2). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(verifier)));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  // 32 bytes are 44 base64 characters, the last one padding.
  return btoa(binary).slice(0, 43).replace(/\+/g, "-").replace(/\//g, "_");
}

/**
 * True when `verifier` is well formed and its S256 challenge is `challenge` (RFC 7636 §4.6), compared in
 * constant time. A malformed verifier or challenge is `false`, never an exception: the token endpoint
 * answers `invalid_grant` either way.
 */
export async function verifyPkce(verifier: unknown, challenge: unknown): Promise<boolean> {
  if (!isPkceVerifier(verifier) || !isPkceChallenge(challenge)) return false;
  return timingSafeEqual(await pkceChallenge(verifier), challenge);
}
