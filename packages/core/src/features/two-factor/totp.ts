/**
 * Time-based one-time passwords: HOTP (RFC 4226) over a time step (RFC 6238), through WebCrypto's HMAC,
 * so it runs on every runtime. authlib's second factor is SHA-1, 6 digits, 30-second steps, as every
 * authenticator app reads an `otpauth://` URI by default; the other hashes and lengths are here for the
 * RFC's test vectors.
 *
 * @module two-factor/totp
 */
import { timingSafeEqual } from "../../crypto/compare.js";

/** The HMAC hash of a TOTP. */
export type TotpHash = "SHA-1" | "SHA-256" | "SHA-512";

/** The length of a step, in seconds (RFC 6238's default, and every app's). */
export const TOTP_STEP_SECONDS = 30;
/** Digits of authlib's codes. */
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one, for clocks that drift and codes typed slowly. */
export const TOTP_SKEW_STEPS = 1;

/** The time step `seconds` (since the epoch) falls in. */
export function stepAt(seconds: number): number {
  return Math.floor(seconds / TOTP_STEP_SECONDS);
}

/** The HOTP value of `counter` under `key` (RFC 4226 section 5.3), `digits` long. */
export async function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS, hash: TotpHash = "SHA-1"): Promise<string> {
  const message = new Uint8Array(8);
  // The counter as a 64-bit big-endian integer; steps stay far below 2^53.
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const hmacKey = await crypto.subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, message));
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = new DataView(mac.buffer).getUint32(offset) & 0x7fffffff;
  return (binary % 10 ** digits).toString().padStart(digits, "0");
}

/** The TOTP of `key` at `seconds` since the epoch. */
export function totpAt(key: Uint8Array, seconds: number, digits = TOTP_DIGITS, hash: TotpHash = "SHA-1"): Promise<string> {
  return hotp(key, stepAt(seconds), digits, hash);
}

/**
 * The step whose code `typed` is, within {@link TOTP_SKEW_STEPS} of the step of `seconds`, or `undefined`.
 * Every candidate is computed and compared in constant time, whatever matched.
 */
export async function matchingStep(key: Uint8Array, typed: string, seconds: number): Promise<number | undefined> {
  const current = stepAt(seconds);
  let matched: number | undefined;
  for (let step = current - TOTP_SKEW_STEPS; step <= current + TOTP_SKEW_STEPS; step++) {
    if (timingSafeEqual(typed, await hotp(key, step)) && matched === undefined) matched = step;
  }
  return matched;
}

/**
 * The `otpauth://totp/` URI an authenticator app reads (as a QR code): the label is `issuer:account`,
 * and the parameters say what authlib checks (SHA-1, 6 digits, 30 s).
 */
export function otpauthUri(input: { secret: string; issuer: string; account: string }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`;
  // Percent-encoded (not `+` for a space, as URLSearchParams would): apps decode with decodeURIComponent.
  const params: Array<[string, string]> = [
    ["secret", input.secret],
    ["issuer", input.issuer],
    ["algorithm", "SHA1"],
    ["digits", String(TOTP_DIGITS)],
    ["period", String(TOTP_STEP_SECONDS)],
  ];
  return `otpauth://totp/${label}?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join("&")}`;
}
