/**
 * The password hash format, `scrypt$N$r$p$<salt b64url>$<key b64url>`, over a given scrypt implementation
 * (see `crypto/scrypt`). The public helpers are in `password`.
 *
 * @module crypto/password-hash
 */
import * as base64url from "jose/base64url";
import type { ScryptFunction } from "./scrypt.js";

const KEY_LENGTH = 64;
/** 2^15 iterations, 8 MiB x 4 = 32 MiB of memory per hash: about 50-100 ms on a server core. */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1 };
/** Refuse hashes whose parameters would need more than 1 GiB (128·N·r·p bytes): a planted hash must not exhaust memory. */
const MAX_MEMORY = 2 ** 30;

const encoder = new TextEncoder();
const passwordBytes = (password: string) => encoder.encode(password.normalize("NFKC"));

const isPowerOfTwo = (n: number) => n > 1 && (n & (n - 1)) === 0;

/** `hashPassword` with a given scrypt implementation (tests prove both implementations agree). */
export async function hashPasswordWith(scrypt: ScryptFunction, password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const { N, r, p } = DEFAULTS;
  const key = await scrypt(passwordBytes(password), salt, { N, r, p, dkLen: KEY_LENGTH });
  return `scrypt$${N}$${r}$${p}$${base64url.encode(salt)}$${base64url.encode(key)}`;
}

/** `verifyPassword` with a given scrypt implementation. */
export async function verifyPasswordWith(scrypt: ScryptFunction, password: string, hash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key, ...rest] = hash.split("$");
  const params = [Number(n), Number(r), Number(p)] as const;
  if (scheme !== "scrypt" || !salt || !key || rest.length > 0) return false;
  if (
    params.some((v) => !Number.isSafeInteger(v) || v < 1) ||
    !isPowerOfTwo(params[0]) ||
    params[0] > 2 ** 20 ||
    128 * params[0] * params[1] * params[2] > MAX_MEMORY
  ) {
    return false;
  }
  let expected: Uint8Array;
  let saltBytes: Uint8Array;
  try {
    expected = base64url.decode(key);
    saltBytes = base64url.decode(salt);
  } catch {
    return false;
  }
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scrypt(passwordBytes(password), saltBytes, { N: params[0], r: params[1], p: params[2], dkLen: KEY_LENGTH });
  let diff = 0;
  for (let i = 0; i < KEY_LENGTH; i++) diff |= (actual[i] as number) ^ (expected[i] as number);
  return diff === 0;
}
