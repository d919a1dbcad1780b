/**
 * Splitting a cookie value that is too large for one cookie into `name.0`, `name.1`, … and joining it back.
 */

/** Browsers accept about 4096 bytes per cookie, name and attributes included. */
const COOKIE_SIZE_LIMIT = 4096;
/** Room kept for the name and the attributes (`Path`, `Expires`, `HttpOnly`, …). */
const ATTRIBUTES_ALLOWANCE = 160;
/** The largest value written in one cookie. */
export const CHUNK_SIZE = COOKIE_SIZE_LIMIT - ATTRIBUTES_ALLOWANCE;

const chunkSuffix = /^\.(0|[1-9][0-9]{0,2})$/;

/**
 * The names of every cookie in `cookies` that belongs to `name`: the plain cookie and its chunks.
 */
export function cookieNamesOf(cookies: Record<string, string | undefined>, name: string): string[] {
  return Object.keys(cookies).filter((key) => key === name || (key.startsWith(name) && chunkSuffix.test(key.slice(name.length))));
}

/**
 * The most chunks a value may have: 10 × 3936 bytes is far more than any session token authlib writes
 * (and more than most servers accept in a Cookie header).
 */
export const MAX_CHUNKS = 10;

/**
 * The value of cookie `name`, joined from its chunks when it is chunked, or `undefined`.
 *
 * Only the exact shape {@link splitIntoChunks} writes is readable: either the plain cookie alone, or
 * `name.0` … `name.(n-1)` with no gap, at most {@link MAX_CHUNKS}, every chunk but the last exactly
 * {@link CHUNK_SIZE} long and the last not longer (so the count is the one the joined length implies).
 * Anything else — a plain cookie next to chunks, a gap, an extra or re-split chunk — means someone else
 * wrote one of the cookies (a planted `name.0` next to the real session cookie, say), and then there is no
 * value at all: never the planted one, never a partial token that decodes by luck.
 */
export function readChunkedCookie(cookies: Record<string, string | undefined>, name: string): string | undefined {
  const names = cookieNamesOf(cookies, name);
  if (names.length === 0) return undefined;
  if (names.length === 1 && names[0] === name) return cookies[name] || undefined;
  if (names.includes(name) || names.length > MAX_CHUNKS) return undefined;
  const chunks: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const value = cookies[`${name}.${i}`];
    const last = i === names.length - 1;
    if (!value || value.length > CHUNK_SIZE || (!last && value.length !== CHUNK_SIZE)) return undefined;
    chunks.push(value);
  }
  return chunks.join("");
}

/** True when the request has any cookie of `name` (plain or chunk), readable or not. */
export function hasChunkedCookie(cookies: Record<string, string | undefined>, name: string): boolean {
  return cookieNamesOf(cookies, name).length > 0;
}

/** Splits a value into the cookies that carry it: one plain cookie, or `name.0`, `name.1`, …. */
export function splitIntoChunks(name: string, value: string): Array<{ name: string; value: string }> {
  if (value.length <= CHUNK_SIZE) return [{ name, value }];
  const count = Math.ceil(value.length / CHUNK_SIZE);
  return Array.from({ length: count }, (_, i) => ({ name: `${name}.${i}`, value: value.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE) }));
}
