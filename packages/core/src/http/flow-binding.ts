/**
 * Flow binding: a sign-in flow belongs to the browser that started it.
 *
 * The cookies that carry a flow from its start to its end (the sealed PKCE, state and nonce cookies, the
 * WebAuthn challenge and the callback URL) hold a binding: a hash of this browser's CSRF token and of who
 * is signed in (the session's subject, or "anonymous"). The end of the flow recomputes it from the request
 * and refuses (`InvalidCheck`) a cookie whose binding differs.
 *
 * Why planting every cookie a sibling subdomain can set is not enough:
 * - The CSRF cookie is `__Host-` on https. Browsers accept a `__Host-` cookie only when it is set by the
 *   exact host itself, `Secure`, `Path=/` and without `Domain`, so no other host (a sibling subdomain
 *   included) can plant or overwrite it; authlib reads the CSRF token only under that name. Its value is
 *   `<token>|<HMAC(secret, token)>`, so even where prefixes do not apply (plain http in development) a
 *   cookie that authlib did not mint is ignored, not trusted.
 * - A check cookie the attacker made in their own browser carries the hash of the attacker's CSRF token.
 *   In the victim's browser the CSRF token is the victim's, which the attacker cannot read (HttpOnly,
 *   host-only) and cannot replace (above), so the hashes differ and the callback is refused.
 * - The subject is part of the hash, so a flow started while signed out cannot finish while signed in
 *   (and vice versa), and a link started by one user can never attach to another user's session.
 * - The binding is inside the sealed (encrypted, authenticated) payload: it cannot be edited without the
 *   secret. It is a hash, so the token it is made from never leaves the CSRF cookie.
 *
 * @module http/flow-binding
 */
import { timingSafeEqual } from "../crypto/compare.js";
import { hmacHex, sha256Hex } from "../crypto/digest.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";

const LABEL = "authlib.flow-binding";

/** The subject recorded for a browser where nobody is signed in. */
export const ANONYMOUS = "anonymous";

/**
 * The binding of a flow to the browser whose CSRF token is `csrfToken`, with `subject` signed in
 * (`ANONYMOUS` for nobody). An empty token gives an empty binding, which never matches.
 */
export async function bindingOf(csrfToken: string, subject: string): Promise<string> {
  if (!csrfToken) return "";
  return sha256Hex(`${LABEL}\u0000${csrfToken}\u0000${subject}`);
}

/** The id of the signed-in user of this request (revoked or unknown sessions are nobody), or `ANONYMOUS`. */
export async function currentSubject(options: InternalOptions, request: RequestInternal): Promise<string> {
  const user = await options.sessionStrategy.currentUser(options, request);
  return user?.id ? String(user.id) : ANONYMOUS;
}

/**
 * The binding of the current request: its HMAC-verified CSRF token (read by `initOptions` for every flow
 * step) and its current subject.
 */
export async function requestBinding(options: InternalOptions, request: RequestInternal): Promise<string> {
  return bindingOf(options.csrfToken, await currentSubject(options, request));
}

/** True when a binding read from a sealed cookie is the binding of this browser. */
export function bindingMatches(sealed: unknown, current: string): boolean {
  return typeof sealed === "string" && sealed !== "" && current !== "" && timingSafeEqual(sealed, current);
}

/**
 * The callback-URL cookie's value: the URL, tagged with an HMAC of the URL and the browser's binding. The
 * callback URL is no authority (the `redirect` callback re-validates it on every read, same origin only),
 * so it is bound to the browser (CSRF token) without the subject: the subject legitimately changes while
 * the cookie lives (it is written before a sign-in and read after it).
 */
export async function sealCallbackUrl(secret: string, csrfToken: string, url: string): Promise<string> {
  return `${await hmacHex(secret, `${LABEL}:callback-url\u0000${await bindingOf(csrfToken, "")}\u0000${url}`)}|${url}`;
}

/** The URL of a callback-URL cookie made for this browser by {@link sealCallbackUrl}, or `undefined`. */
export async function openCallbackUrl(secrets: string[], csrfToken: string, value: string): Promise<string | undefined> {
  const index = value.indexOf("|");
  if (index <= 0 || !csrfToken) return undefined;
  const mac = value.slice(0, index);
  const url = value.slice(index + 1);
  const binding = await bindingOf(csrfToken, "");
  for (const secret of secrets) {
    if (timingSafeEqual(mac, await hmacHex(secret, `${LABEL}:callback-url\u0000${binding}\u0000${url}`))) return url;
  }
  return undefined;
}
