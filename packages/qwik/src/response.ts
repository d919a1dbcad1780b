/**
 * Moving what core answers onto Qwik City's response, without losing anything on the way.
 *
 * Cookies go through `ev.cookie.append(name, rest)`, where `rest` is everything after `name=` in core's
 * `Set-Cookie` line. Qwik writes that back as `name=rest`, so each cookie reaches the client byte for
 * byte, all attributes included, and `append` (unlike `set`) keeps two cookies of the same name apart.
 * `ev.headers.append("Set-Cookie", …)` would not do: the Node adapter sets headers one `setHeader` call
 * per entry (the last Set-Cookie wins) and then overwrites them with the cookie jar's.
 */

import type { Cookie } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AbortMessage } from "@builder.io/qwik-city/middleware/request-handler";

/** Adds each `Set-Cookie` line to the Qwik response, unchanged. */
export function appendSetCookies(ev: RequestEventCommon, setCookies: readonly string[]): void {
  for (const line of setCookies) {
    const equals = line.indexOf("=");
    if (equals <= 0) continue;
    ev.cookie.append(line.slice(0, equals).trim(), line.slice(equals + 1));
  }
}

/** Adds cookies given as name, value and options (core's `getSession`) to the Qwik response. */
export function appendCookies(ev: RequestEventCommon, cookies: readonly Cookie[]): void {
  appendSetCookies(ev, cookies.map(serializeCookie));
}

/** Serializes one cookie. Core's names and values are already cookie-safe (base64url, hex, URLs it encoded). */
export function serializeCookie({ name, value, options }: Cookie): string {
  const parts = [`${name}=${value}`];
  if (options.domain) parts.push(`Domain=${options.domain}`);
  if (options.path) parts.push(`Path=${options.path}`);
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (typeof options.maxAge === "number") parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  if (options.sameSite) parts.push(`SameSite=${options.sameSite[0].toUpperCase()}${options.sameSite.slice(1)}`);
  if (options.partitioned) parts.push("Partitioned");
  return parts.join("; ");
}

/**
 * Sends core's response as the Qwik response: status, every header, every cookie, the body. Returns
 * Qwik's abort message, for the caller to `throw`.
 */
export async function sendResponse(ev: RequestEventCommon, response: Response): Promise<AbortMessage> {
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") ev.headers.set(key, value);
  });
  appendSetCookies(ev, response.headers.getSetCookie());
  const body = new Uint8Array(await response.arrayBuffer());
  return ev.send(response.status, body);
}
