/** Constant-time string comparison, runtime-agnostic (no node:crypto needed). */
const encoder = new TextEncoder();

/**
 * True when `a` and `b` are equal. The time taken depends only on the length of `b` (the secret side),
 * not on where the strings differ.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < y.length; i++) diff |= (x[i % (x.length || 1)] ?? 0) ^ (y[i] as number);
  return diff === 0;
}

/** Hex SHA-256 of a string. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(value));
  return toHex(new Uint8Array(digest));
}

/** Hex HMAC-SHA256 of `value` keyed by `secret`. */
export async function hmacHex(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(value))));
}

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes = 32): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)));
}

function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
