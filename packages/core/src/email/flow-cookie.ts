/**
 * The email sign-in flow cookie: what the browser that asked for a sign-in mail keeps of it.
 *
 * Sealed (encrypted JWE, salt = the cookie's name) and bound to this browser's CSRF token
 * (`http/flow-binding.ts`), it holds the provider, the address and the stored hash of the mail's token.
 * With it, the link signs in at once in this browser (anywhere else it opens a confirmation page), and
 * the mailed code can be entered here (the hash is what the code is derived from). It proves nothing by
 * itself: without the mail, neither the link nor the code is known. The newest request wins: asking
 * again replaces it.
 *
 * @module email/flow-cookie
 */
import type { Cookie } from "../http/cookies.js";
import { expiredCookie } from "../http/cookies.js";
import { bindingMatches, bindingOf } from "../http/flow-binding.js";
import { decode, encode } from "../jwt.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";

/** What the flow cookie holds. */
export interface EmailFlow {
  /** The email provider's id. */
  provider: string;
  /** The address the mail went to (normalised). */
  identifier: string;
  /** The stored hash of the mail's token. */
  hashed: string;
}

interface SealedFlow extends EmailFlow {
  /** The browser (CSRF token) that asked. */
  browser: string;
}

/** The binding of a flow to this browser: its CSRF token only (nobody is signed in yet, and that may change). */
function browserOf(options: InternalOptions): Promise<string> {
  return bindingOf(options.csrfToken, "");
}

/** The cookie that keeps `flow` in this browser for `maxAge` seconds (the token's lifetime). */
export async function sealEmailFlow(options: InternalOptions, flow: EmailFlow, maxAge: number): Promise<Cookie> {
  const option = options.cookies.emailFlow;
  const payload: SealedFlow = { ...flow, browser: await browserOf(options) };
  const value = await encode<SealedFlow>({ token: payload, secret: options.secret, salt: option.name, maxAge });
  return { name: option.name, value, options: { ...option.options, maxAge } };
}

/**
 * The flow of this browser for `providerId`, or `undefined` when there is none: no cookie, a cookie that
 * does not open (tampered with, expired, another secret), one for another provider, or one made in
 * another browser (a planted cookie).
 */
export async function openEmailFlow(
  options: InternalOptions,
  request: RequestInternal,
  providerId: string,
): Promise<EmailFlow | undefined> {
  const name = options.cookies.emailFlow.name;
  let sealed: Partial<SealedFlow> | null;
  try {
    sealed = await decode<Partial<SealedFlow>>({ token: request.cookies[name], secret: options.secret, salt: name });
  } catch {
    return undefined;
  }
  if (!sealed || sealed.provider !== providerId || typeof sealed.identifier !== "string" || typeof sealed.hashed !== "string")
    return undefined;
  if (!bindingMatches(sealed.browser, await browserOf(options))) return undefined;
  return { provider: sealed.provider, identifier: sealed.identifier, hashed: sealed.hashed };
}

/** The cookie that deletes the flow cookie (its mail was used). */
export function clearEmailFlow(options: InternalOptions): Cookie {
  return expiredCookie(options.cookies.emailFlow.name, options.cookies.emailFlow.options);
}
