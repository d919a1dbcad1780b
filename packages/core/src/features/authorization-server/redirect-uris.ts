/**
 * Redirect URIs: which may be registered, and whether a requested one is one of a client's.
 *
 * A requested redirect URI matches a registered one only when the two strings are equal (OAuth 2.1 §2.3.1:
 * no prefix, no pattern, no normalisation). The one exception is RFC 8252 §7.3: a native app listening on
 * the loopback interface gets a port from the operating system at run time, so a loopback URI matches a
 * registered loopback URI whatever the port of either, when the rest is character for character the same.
 * For that exception both strings must already be in the form the WHATWG URL parser writes them in
 * (lower-case host, no default port, no `.`/`..` or `%2e` segments, no leading zeros in the port): a
 * spelling that only becomes equal once parsed is no match, so no normalisation can join two URIs that were
 * registered apart.
 *
 * @module features/authorization-server/redirect-uris
 */
import { OAuthError } from "./oauth-error.js";

/** The loopback hosts of RFC 8252 §7.3 (and `localhost`, §8.3 "not recommended" but what tools register), as URL's `hostname` writes them. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Schemes that run or read something instead of navigating: refused by name, whatever else is said. */
const DANGEROUS_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:"]);

/** The longest redirect URI accepted (browsers and servers cut URLs near 2 KB anyway). */
const MAX_LENGTH = 2000;

/**
 * The characters of an RFC 3986 URI (unreserved, reserved, `%`). Nothing else: no space, control, raw
 * non-ASCII, and no `\`, which the URL parser reads as `/` where other parsers read it as a character of
 * the userinfo (`https://app.example\@evil.example/`).
 */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
/** A `%` not followed by two hex digits. */
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/** `uri` parsed, or `null` when it is no absolute URL. */
function parse(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

/** True when the raw string names a user (`user@`, `user:pass@`, or an empty `@`) before its host. */
function hasUserinfo(uri: string, url: URL): boolean {
  return url.username !== "" || url.password !== "" || /^[^:/?#]+:\/\/[^/?#]*@/.test(uri);
}

/**
 * The loopback URI without its port, when `uri` is an `http:` loopback URI written exactly as the URL
 * parser writes it (a bare origin may omit its final `/`, and keeps it omitted); else `null`. A spelling
 * that becomes another URI once parsed gets no exception: it is compared as written, exactly. (Userinfo
 * and fragments need no check here: a requested URI with them is refused first, so a registered one with
 * them has a key no requested URI has.)
 */
function loopbackWithoutPort(uri: string): string | null {
  const url = parse(uri);
  if (url?.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname)) return null;
  const bareOrigin = `${uri}/` === url.href;
  if (uri !== url.href && !bareOrigin) return null;
  url.port = "";
  return bareOrigin ? url.href.slice(0, -1) : url.href;
}

/**
 * True when `requested` is one of the `registered` redirect URIs: equal as strings, or (RFC 8252 §7.3) both
 * `http:` loopback URIs (`127.0.0.1`, `[::1]`, `localhost`) that differ in their port only. A requested URI
 * with a fragment or userinfo never matches, even one registered with it.
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (typeof requested !== "string" || requested.includes("#")) return false;
  const url = parse(requested);
  if (!url || hasUserinfo(requested, url)) return false;
  if (registered.includes(requested)) return true;
  const loopback = loopbackWithoutPort(requested);
  return loopback !== null && registered.some((uri) => loopbackWithoutPort(uri) === loopback);
}

/** Options of {@link checkRedirectUri}. */
export interface RedirectUriCheckOptions {
  /** `"loopback"`: an `http:` URI to a loopback host (RFC 8252 §7.3) is allowed. Without it, `http:` is refused. */
  allowHttp?: "loopback";
}

function refuse(uri: string, why: string): never {
  const shown = uri.length > 100 ? `${uri.slice(0, 100)}…` : uri;
  throw new OAuthError("invalid_redirect_uri", `The redirect URI ${JSON.stringify(shown)} ${why}.`);
}

/**
 * Checks a redirect URI offered for registration, and throws `OAuthError("invalid_redirect_uri")` when it
 * may not be one: not an absolute URI of RFC 3986 characters (at most 2000 characters), a fragment, userinfo,
 * a wildcard `*`, a scheme that runs code or reads files (`javascript:`, `data:`, `file:`, `vbscript:`, …),
 * or `http:` (allowed only to a loopback host, with `allowHttp: "loopback"`). What passes: `https:`
 * URIs, loopback `http:` URIs when allowed, and native apps' private-use schemes (RFC 8252 §7.1), which
 * must contain a dot (a reversed domain name, `com.example.app:/callback`) so that they name their owner.
 */
export function checkRedirectUri(uri: string, options: RedirectUriCheckOptions = {}): void {
  if (typeof uri !== "string" || uri === "") refuse(String(uri), "is not a string");
  if (uri.length > MAX_LENGTH) refuse(uri, `is longer than ${MAX_LENGTH} characters`);
  if (!URI_CHARACTERS.test(uri)) refuse(uri, "has characters a URI cannot have (spaces, controls, non-ASCII, \\, <, >, …)");
  if (BAD_PERCENT.test(uri)) refuse(uri, "has a % that starts no percent-encoding");
  const url = parse(uri);
  if (!url) refuse(uri, "is not an absolute URI");
  // `https:example.com` parses, as `https://example.com/`: a registration says what it means, with `//`.
  if ((url.protocol === "https:" || url.protocol === "http:") && !/^https?:\/\/[^/]/i.test(uri)) {
    refuse(uri, "is not an absolute URI with a host");
  }
  if (DANGEROUS_SCHEMES.has(url.protocol)) refuse(uri, `uses the ${url.protocol} scheme`);
  if (uri.includes("#")) refuse(uri, "has a fragment");
  if (uri.includes("*")) refuse(uri, "has a wildcard");
  if (hasUserinfo(uri, url)) refuse(uri, "has userinfo");
  if (url.protocol === "https:") return;
  if (url.protocol === "http:") {
    if (!LOOPBACK_HOSTS.has(url.hostname)) refuse(uri, "uses http: to a host that is not loopback (use https:)");
    if (options.allowHttp !== "loopback") refuse(uri, "uses http: (use https:)");
    return;
  }
  if (!url.protocol.includes(".")) {
    refuse(uri, "uses a scheme that is neither https: nor a private-use scheme with a dot (com.example.app:)");
  }
}
