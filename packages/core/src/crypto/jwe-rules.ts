/**
 * The checks a session token (compact JWE, `dir` + `A256CBC-HS512` or `A256GCM`) must pass, shared by the
 * node:crypto and WebCrypto decoders so both accept exactly what `jose`'s `jwtDecrypt` accepts with the
 * options authlib has always used (`keyManagementAlgorithms: ["dir"]`, both `enc`s, 15 s clock tolerance).
 * Each rule below names the jose behaviour it mirrors; the property tests in `test/session/jwt-fast-path.test.ts`
 * hold the two decoders to jose on random and tampered tokens.
 *
 * @module crypto/jwe-rules
 */
import { JWTSessionError } from "../errors.js";
import type { ContentEncryption } from "./derive-key.js";

/** Clock skew allowed when checking `exp` and `nbf`, in seconds. */
export const CLOCK_TOLERANCE = 15;

/** Returned by a decoder for a token only jose handles (a compressed, `zip: "DEF"`, payload). */
export const USE_JOSE = Symbol("authlib.jwe.use-jose");

/** What a content encryption needs from the token's parts. */
export const encryptionShape: Record<ContentEncryption, { ivBytes: number; tagBytes: number }> = {
  "A256CBC-HS512": { ivBytes: 16, tagBytes: 32 },
  A256GCM: { ivBytes: 12, tagBytes: 16 },
};

// jose parses the header and the claims with a fatal decoder: invalid UTF-8 is a rejection, not U+FFFD.
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/** The token is not five canonical base64url parts. */
export function notCompact(): JWTSessionError {
  return new JWTSessionError("The token is not a compact JWE.");
}

/** Any other rejection; the reason goes in the cause (never the token). */
export function rejected(reason: string): JWTSessionError {
  return new JWTSessionError("The token could not be decrypted or has expired.", { cause: new Error(reason) });
}

/** The token's `exp` has passed: a session that ended, not a tampered token (`code` "expired" says so to the log). */
export function expired(): JWTSessionError {
  const error = rejected("expired");
  error.code = "expired";
  return error;
}

/** No secret's key id matches the token's `kid`. */
export function noMatchingSecret(): JWTSessionError {
  return new JWTSessionError("No secret matches the token's key id.");
}

/** jose's `isObject`: a plain object (prototype Object.prototype or null), not an array or class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Object.prototype.toString.call(value) !== "[object Object]") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function parseObject(bytes: Uint8Array, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(strictDecoder.decode(bytes));
  } catch {
    throw rejected(`${what} is not JSON`);
  }
  if (!isPlainObject(parsed)) throw rejected(`${what} is not a JSON object`);
  return parsed;
}

/** The protected header's fields a decoder acts on. */
export interface CheckedHeader {
  header: Record<string, unknown>;
  enc: ContentEncryption;
  kid: unknown;
}

/**
 * Parses and checks the protected header: a JSON object, no `crit` (jose recognises no JWE extension),
 * `zip` only as `"DEF"` (handed to jose), `alg` exactly `dir`, `enc` one of the two authlib reads.
 */
export function checkHeader(bytes: Uint8Array): CheckedHeader | typeof USE_JOSE {
  const header = parseObject(bytes, "the protected header");
  if (header.crit !== undefined) throw rejected("unsupported crit");
  if (header.zip !== undefined) {
    if (header.zip !== "DEF") throw rejected("unsupported zip");
    return USE_JOSE;
  }
  if (header.alg !== "dir") throw rejected("alg is not dir");
  const enc = header.enc;
  if (enc !== "A256CBC-HS512" && enc !== "A256GCM") throw rejected("unsupported enc");
  return { header, enc, kid: header.kid };
}

/** The five parts of a compact JWE, as text and as bytes. */
export interface CompactParts<B extends Uint8Array> {
  /** The encoded protected header (the AAD). */
  encodedHeader: string;
  header: B;
  encryptedKey: B;
  iv: B;
  ciphertext: B;
  tag: B;
}

/**
 * Splits a compact JWE into its five parts, each decoded by `decode` (canonical base64url only: one
 * spelling per token). Throws `JWTSessionError` (not compact) otherwise.
 */
export function splitCompact<B extends Uint8Array>(token: string, decode: (part: string) => B | undefined): CompactParts<B> {
  const parts = token.split(".");
  if (parts.length !== 5) throw notCompact();
  const bytes: B[] = [];
  for (const part of parts) {
    const decoded = decode(part);
    if (decoded === undefined) throw notCompact();
    bytes.push(decoded);
  }
  const [header, encryptedKey, iv, ciphertext, tag] = bytes as [B, B, B, B, B];
  return { encodedHeader: parts[0] as string, header, encryptedKey, iv, ciphertext, tag };
}

/**
 * Checks the parts around the ciphertext as jose does for `dir`: no encrypted key, an IV and a tag of
 * the encryption's lengths (jose lets a CBC tag of another length reach the MAC comparison, which fails).
 */
export function checkParts(enc: ContentEncryption, encryptedKey: Uint8Array, iv: Uint8Array, tag: Uint8Array): void {
  const shape = encryptionShape[enc];
  if (encryptedKey.length !== 0) throw rejected("unexpected encrypted key");
  if (iv.length !== shape.ivBytes) throw rejected("bad IV length");
  if (tag.length !== shape.tagBytes) throw rejected("bad tag length");
}

/**
 * The claims of a decrypted token, checked as jose's `jwtDecrypt` does: a JSON object; `iat`, `nbf`,
 * `exp` numbers when present; `nbf` not after now + tolerance; `exp` after now − tolerance; `iss`, `sub`,
 * `aud` copied into the header equal to the claims.
 */
export function checkClaims(header: Record<string, unknown>, plaintext: Uint8Array): Record<string, unknown> {
  const claims = parseObject(plaintext, "the claims set");
  const now = Math.floor(Date.now() / 1000);
  const { iat, nbf, exp } = claims;
  if (iat !== undefined && typeof iat !== "number") throw rejected("iat is not a number");
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now + CLOCK_TOLERANCE)) throw rejected("nbf check failed");
  if (exp !== undefined && (typeof exp !== "number" || exp <= now - CLOCK_TOLERANCE)) throw expired();
  for (const claim of ["iss", "sub"] as const) {
    if (header[claim] !== undefined && header[claim] !== claims[claim]) throw rejected(`replicated ${claim} mismatch`);
  }
  if (header.aud !== undefined && JSON.stringify(header.aud) !== JSON.stringify(claims.aud)) throw rejected("replicated aud mismatch");
  return claims;
}

/** Constant-time equality of two byte arrays of public, equal length (a MAC tag and its expected value). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** The AL block of RFC 7518 §5.2.2.1: the AAD's length in bits, as a 64-bit big-endian integer. */
export function aadLengthBlock(aadBytes: number): Uint8Array {
  const bits = aadBytes * 8;
  const block = new Uint8Array(8);
  const view = new DataView(block.buffer);
  view.setUint32(0, Math.floor(bits / 2 ** 32));
  view.setUint32(4, bits >>> 0);
  return block;
}

/** The claims `encode` issues: a copy of `token` (as jose copies it) with `iat`, `exp` and a fresh `jti`. */
export function issuedClaims(token: Record<string, unknown>, now: number, maxAge: number): Record<string, unknown> {
  const claims = structuredClone(token);
  claims.iat = now;
  claims.exp = now + maxAge;
  claims.jti = crypto.randomUUID();
  return claims;
}

/** True when jose's `EncryptJWT` would issue these claims as they are (else it throws: let it). */
export function issuable(token: unknown, maxAge: unknown): token is Record<string, unknown> {
  if (!isPlainObject(token) || typeof maxAge !== "number" || !Number.isFinite(maxAge)) return false;
  const nbf = token.nbf;
  return typeof nbf !== "number" || Number.isFinite(nbf);
}
