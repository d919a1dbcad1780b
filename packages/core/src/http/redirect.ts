/**
 * Redirect targets. Every URL a client can influence (callbackUrl in the query, the body or the cookie,
 * the string a `signIn` callback returns) goes through the `redirect` callback; the default one allows
 * the app's own origin only. URLs are resolved with the WHATWG parser before their origin is compared,
 * so `//evil`, `/\evil`, `\\evil`, tabs and newlines, userinfo and odd schemes are judged by what a
 * browser would actually do with them, and the resolved URL (not the raw input) is what we redirect to.
 */
import { InvalidCallbackUrl } from "../errors.js";
import type { CallbacksOptions, LoggerInstance } from "../types/config.js";
import { logFailure } from "./log-level.js";

/** `url` resolved against `baseUrl`, or `null` when it is not a valid http(s) URL. */
export function resolveUrl(url: string, baseUrl: string): URL | null {
  try {
    const resolved = new URL(url, baseUrl);
    return resolved.protocol === "http:" || resolved.protocol === "https:" ? resolved : null;
  } catch {
    return null;
  }
}

/** True when `url` (relative or absolute) lands on the origin of `baseUrl`. */
export function isSameOrigin(url: string, baseUrl: string): boolean {
  const resolved = resolveUrl(url, baseUrl);
  return resolved !== null && resolved.origin === new URL(baseUrl).origin && resolved.username === "" && resolved.password === "";
}

/** The default `redirect` callback: same-origin URLs (relative or absolute) pass, anything else gives `baseUrl`. */
export const defaultRedirect: CallbacksOptions["redirect"] = ({ url, baseUrl }) => {
  return isSameOrigin(url, baseUrl) ? (resolveUrl(url, baseUrl) as URL).href : baseUrl;
};

/**
 * Runs the `redirect` callback on a client-supplied URL and returns an absolute URL to redirect to.
 * A candidate the callback refuses, or a callback result that is not a valid http(s) URL, is replaced by
 * `baseUrl` and logged as `InvalidCallbackUrl`: a client's URL off this origin as the `callback-url-refused`
 * warning (a crafted link is the client's doing), the app's callback failing as an error. Bad input is
 * never a server error.
 */
export async function resolveRedirect(
  candidate: string,
  baseUrl: string,
  redirect: CallbacksOptions["redirect"],
  logger: LoggerInstance,
): Promise<string> {
  let result: string;
  try {
    result = await redirect({ url: candidate, baseUrl });
  } catch (error) {
    logger.error(new InvalidCallbackUrl("The redirect callback threw; using the base URL.", { cause: error as Error }));
    return baseUrl;
  }
  const resolved = typeof result === "string" ? resolveUrl(result, baseUrl) : null;
  if (!resolved) {
    logger.error(new InvalidCallbackUrl("The redirect callback returned an invalid URL; using the base URL."));
    return baseUrl;
  }
  if (resolved.href === new URL(baseUrl).href && !isSameOrigin(candidate, baseUrl)) {
    const refused = new InvalidCallbackUrl("A callback URL outside this origin was replaced by the base URL.");
    refused.code = "foreign-origin";
    logFailure(logger, refused);
  }
  return resolved.href;
}
