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
 * The value of cookie `name`, joined from its chunks when it is chunked. A chunk set with a gap
 * (`.0` and `.2` without `.1`) is unreadable and gives `undefined`: a partial token never decodes by luck.
 */
export function readChunkedCookie(cookies: Record<string, string | undefined>, name: string): string | undefined {
  const chunks: string[] = [];
  for (const key of cookieNamesOf(cookies, name)) {
    if (key === name) continue;
    const value = cookies[key];
    if (value) chunks[Number(key.slice(name.length + 1))] = value;
  }
  if (chunks.length > 0) {
    for (let i = 0; i < chunks.length; i++) if (chunks[i] === undefined) return undefined;
    return chunks.join("");
  }
  return cookies[name] || undefined;
}

/** Splits a value into the cookies that carry it: one plain cookie, or `name.0`, `name.1`, …. */
export function splitIntoChunks(name: string, value: string): Array<{ name: string; value: string }> {
  if (value.length <= CHUNK_SIZE) return [{ name, value }];
  const count = Math.ceil(value.length / CHUNK_SIZE);
  return Array.from({ length: count }, (_, i) => ({ name: `${name}.${i}`, value: value.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE) }));
}
