/**
 * Password hashing for the credentials provider, with scrypt (memory-hard) from `node:crypto`.
 * The hash string carries its parameters and salt: `scrypt$N$r$p$<salt b64url>$<key b64url>`, so the
 * cost can be raised later without invalidating stored hashes.
 *
 * @module password
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const KEY_LENGTH = 64;
/** 2^15 iterations, 8 MiB x 4 = 32 MiB of memory per hash: about 50-100 ms on a server core. */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1 };

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: 128 * N * r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hashes a password for storage. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = DEFAULTS;
  const key = await derive(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** True when `password` matches `hash` (made by {@link hashPassword}). Constant-time; false for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = hash.split("$");
  const params = [Number(n), Number(r), Number(p)] as const;
  if (scheme !== "scrypt" || !salt || !key || params.some((v) => !Number.isSafeInteger(v) || v < 1) || params[0] > 2 ** 20) return false;
  const expected = Buffer.from(key, "base64url");
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, Buffer.from(salt, "base64url"), ...params);
  return timingSafeEqual(actual, expected);
}
