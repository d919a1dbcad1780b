/**
 * CSRF protection, double-submit style: the cookie holds `<token>|<hmac>`; a state-changing POST must send
 * the same token in its body. The HMAC (keyed by the secret) stops an attacker who can plant a cookie
 * (a sibling subdomain) from choosing the token. On top of that, POSTs that browsers mark as cross-site
 * (`Sec-Fetch-Site: cross-site`, or an `Origin` that is not ours, `null` included) are refused, but for
 * one case: `Origin: null` with `Sec-Fetch-Site: same-origin` is the form of one of our own pages (see
 * {@link isCrossSite}).
 */
import { timingSafeEqual } from "../crypto/compare.js";
import { hmacHex, randomHex } from "../crypto/digest.js";
import { MissingCSRF } from "../errors.js";
import type { CookieOption } from "../types/config.js";
import type { RequestInternal } from "../types/internal.js";
import type { Cookie } from "./cookies.js";
import { bodyString } from "./request.js";

const HMAC_LABEL = "authlib.csrf-token:";

/** The CSRF token of this request, whether the POST proved it, and the cookie to set when it is new. */
export interface CsrfState {
  token: string;
  verified: boolean;
  cookie?: Cookie;
}

async function isValidCookie(token: string, mac: string, secrets: string[]): Promise<boolean> {
  for (const secret of secrets) {
    if (timingSafeEqual(mac, await hmacHex(secret, HMAC_LABEL + token))) return true;
  }
  return false;
}

/**
 * Reads (or, with `mint`, makes) the CSRF token and checks the POST body against it. `origin` is the app's
 * trusted origin. Without `mint` a request without a valid cookie gets the empty token: a flow's callback
 * must not replace the cookie its flow is bound to (a `form_post` bounce arrives without cookies).
 */
export async function resolveCsrf(
  request: RequestInternal,
  option: CookieOption,
  secrets: string[],
  origin: string,
  mint: boolean,
): Promise<CsrfState> {
  const raw = request.cookies[option.name];
  if (raw) {
    const [token, mac] = raw.split("|");
    if (token && mac) {
      if (await isValidCookie(token, mac, secrets)) {
        if (request.method !== "POST") return { token, verified: false };
        const sent = bodyString(request.body, "csrfToken");
        const verified = sent !== undefined && timingSafeEqual(sent, token) && !isCrossSite(request, origin);
        return { token, verified };
      }
    }
  }
  if (!mint) return { token: "", verified: false };
  const token = randomHex(32);
  const mac = await hmacHex(secrets[0] as string, HMAC_LABEL + token);
  return { token, verified: false, cookie: { name: option.name, value: `${token}|${mac}`, options: { ...option.options } } };
}

/**
 * True when the browser says the request came from another site.
 *
 * A page sent with `Referrer-Policy: no-referrer` (an app's own page may be; authlib's are `same-origin`)
 * has browsers serialise the `Origin` of its own form posts as `null` (Fetch, "serializing a request
 * origin"). `Sec-Fetch-Site` is set by the browser alone (no page can forge it) and says
 * `same-origin` for exactly those posts; a null origin with any other value (a sandboxed frame or a
 * `data:` page elsewhere is `cross-site`), or without one, is still refused.
 */
export function isCrossSite(request: Pick<RequestInternal, "headers">, ownOrigin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  if (origin === "null" && site === "same-origin") return false;
  return origin !== ownOrigin;
}

/** Throws `MissingCSRF` unless the request proved its CSRF token. */
export function assertCsrf(action: string, verified: boolean): void {
  if (!verified) throw new MissingCSRF(`The CSRF token was missing or wrong during the ${action} action.`);
}
