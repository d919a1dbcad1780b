/**
 * Which origin a request is served from: the one place authlib decides what it believes about its own
 * address. Every URL authlib builds (email links, `redirect_uri`, redirects, page form actions, the
 * WebAuthn relying party, the redirect proxy's state) and every same-origin check (CSRF `Origin`, the
 * `redirect` callback's `baseUrl`) starts from {@link resolveOrigin}.
 *
 * Three modes, strongest first:
 * 1. **Canonical origin** (`config.url`, or `AUTHLIB_URL` via `setEnvDefaults`): the origin is that URL's.
 *    `Host`, `X-Forwarded-Host`, `X-Forwarded-Proto` and `Forwarded` are never read.
 * 2. **Trusted-host list** (`config.trustedHosts`, or `AUTH_TRUSTED_HOSTS`): `X-Forwarded-Host` (else
 *    `Host`) and `X-Forwarded-Proto` are believed only when they name ONE value that is on the list. Several
 *    values (a duplicated header, or one comma-joined) must all be the same trusted value; anything else,
 *    malformed or ambiguous, is refused with `UntrustedHost`.
 * 3. **`trustHost: true` without a list**: the first `X-Forwarded-Host` / `X-Forwarded-Proto` value wins
 *    (a malformed one is ignored). Anyone who can reach the app can choose the origin, so this is for
 *    local development or for a proxy that overwrites those headers; in production it logs
 *    `trust-host-unrestricted` once per configuration.
 *
 * `Forwarded` (RFC 7239) is ignored in every mode: proxies that set it also set `X-Forwarded-*`, and two
 * sources of the same fact would be one more way for them to disagree.
 *
 * Host patterns (`trustedHosts`, and the host part of `redirectProxyAllowedOrigins`): `host[:port]`,
 * lower-case ASCII (punycode for IDNs). A pattern without a port matches the scheme's default port only.
 * The leftmost label may hold ONE `*`, which matches one or more of `a-z`, `0-9` and `-`, never a dot:
 * `*.preview.example` matches `pr-1.preview.example` but neither `preview.example` nor
 * `a.b.preview.example`; `*-team.preview.example` matches `pr-1-team.preview.example`. A wildcard needs at
 * least two labels after it (`*.example` is refused), so a pattern cannot cover a whole public suffix.
 *
 * @module http/origin
 */
import { InvalidOriginConfig, UntrustedHost } from "../errors.js";
import type { AuthConfig } from "../types/config.js";

/** The configuration fields the origin depends on. */
export type OriginConfig = Pick<AuthConfig, "url" | "trustHost" | "trustedHosts">;

/** A compiled host pattern. */
interface HostPattern {
  hostname: RegExp;
  /** The explicit port, or `undefined` for "the scheme's default port". */
  port?: string;
}

const defaultPorts: Record<string, string> = { "http:": "80", "https:": "443" };
const patternSyntax = /^(\[[0-9a-f:.]+\]|[a-z0-9*.-]+)(?::(\d{1,5}))?$/;
const labelSyntax = /^[a-z0-9-]+$/;

function invalid(what: string, value: string, why: string): InvalidOriginConfig {
  return new InvalidOriginConfig(`${what} ${JSON.stringify(value.slice(0, 200))} is not valid: ${why}.`);
}

/** Compiles a host pattern; throws `InvalidOriginConfig` when it does not follow the syntax above. */
export function compileHostPattern(pattern: string, what = "The trusted host pattern"): HostPattern {
  const match = patternSyntax.exec(pattern);
  if (!match) throw invalid(what, pattern, "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443");
  const [, hostname = "", port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw invalid(what, pattern, "the port is out of range");
  const escapeRegExp = (s: string) => s.replace(/[.\-[\]]/g, "\\$&");
  if (!hostname.includes("*")) {
    let parsed: string;
    try {
      parsed = new URL(`http://${hostname}`).hostname;
    } catch {
      throw invalid(what, pattern, "the host is not a valid host name");
    }
    if (parsed !== hostname) throw invalid(what, pattern, "write the host as a browser would (lower-case, punycode)");
    return { hostname: new RegExp(`^${escapeRegExp(hostname)}$`), port };
  }
  const labels = hostname.split(".");
  const [first = "", ...rest] = labels;
  if (first.split("*").length !== 2 || rest.some((l) => l.includes("*"))) {
    throw invalid(what, pattern, "`*` may appear once, in the leftmost label only");
  }
  if (rest.length < 2) throw invalid(what, pattern, "a wildcard needs at least two labels after it");
  if (!labelSyntax.test(first.replace("*", "x")) || !rest.every((l) => labelSyntax.test(l))) {
    throw invalid(what, pattern, "labels may only hold a-z, 0-9 and -");
  }
  const [before = "", after = ""] = first.split("*");
  const source = `^${escapeRegExp(before)}[a-z0-9-]+${escapeRegExp(after)}\\.${rest.map(escapeRegExp).join("\\.")}$`;
  return { hostname: new RegExp(source), port };
}

/** True when the host of `url` (an http(s) URL) matches the pattern. */
function hostMatches(url: URL, pattern: HostPattern): boolean {
  if (!pattern.hostname.test(url.hostname)) return false;
  const port = url.port === "" ? defaultPorts[url.protocol] : url.port;
  return port === (pattern.port ?? defaultPorts[url.protocol]);
}

/** True when `url`'s host matches one of the host `patterns` (compiled for this call). */
export function isTrustedHost(url: URL, patterns: readonly string[]): boolean {
  return matchesAny(
    url,
    patterns.map((p) => compileHostPattern(p)),
  );
}

function matchesAny(url: URL, patterns: readonly HostPattern[]): boolean {
  return patterns.some((p) => hostMatches(url, p));
}

/** An origin pattern: `https://` or `http://`, then a host pattern. A trailing `/` is allowed, nothing else. */
function compileOriginPattern(pattern: string): { protocol: string; host: HostPattern } {
  const match = /^(https?):\/\/([^/?#]+)\/?$/.exec(pattern);
  if (!match) throw invalid("The redirect proxy target", pattern, "use scheme://host[:port], e.g. https://*-team.preview.example");
  return { protocol: `${match[1]}:`, host: compileHostPattern(match[2] as string, "The redirect proxy target") };
}

/** True when `url` is on an origin matching one of the origin patterns (already validated). */
export function isAllowedOrigin(url: URL, patterns: readonly string[]): boolean {
  return patterns.some((p) => {
    const { protocol, host } = compileOriginPattern(p);
    return url.protocol === protocol && hostMatches(url, host);
  });
}

/**
 * The origin of the canonical URL. It must be an absolute http(s) URL without credentials, query or
 * fragment; throws `InvalidOriginConfig` otherwise (never a silent fallback to the request's host).
 */
export function canonicalOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid("The canonical URL (url / AUTHLIB_URL)", url, "it is not an absolute URL such as https://app.example.com");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw invalid("The canonical URL (url / AUTHLIB_URL)", url, "use http or https");
  if (parsed.username !== "" || parsed.password !== "") throw invalid("The canonical URL (url / AUTHLIB_URL)", url, "it holds credentials");
  if (parsed.search !== "" || parsed.hash !== "")
    throw invalid("The canonical URL (url / AUTHLIB_URL)", url, "it holds a query or fragment");
  return parsed.origin;
}

/** An origin no request has: custom pages are resolved against it to see whether they stay on "their" origin. */
const PLACEHOLDER_ORIGIN = "http://authlib.invalid";

/**
 * Checks a custom page (`pages.signIn`, …). authlib redirects browsers to it, so it must be a page of the
 * app itself: a path (`/login`), or an absolute URL on the canonical `url`'s origin. Anything that a
 * browser would take elsewhere (`https://other.example`, `//other.example`, `/\other.example`, another
 * scheme, credentials) is refused with `InvalidOriginConfig` at start-up rather than followed.
 */
function checkCustomPage(name: string, value: unknown, canonical: string | undefined): void {
  const what = `pages.${name}`;
  if (typeof value !== "string" || value === "") throw new InvalidOriginConfig(`${what} must be a path of the app, such as /login.`);
  let resolved: URL;
  try {
    resolved = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    throw invalid(what, value, "it is not a URL");
  }
  const onApp = resolved.origin === PLACEHOLDER_ORIGIN || (canonical !== undefined && resolved.origin === canonical);
  if (!onApp || resolved.username !== "" || resolved.password !== "") {
    throw invalid(what, value, "use a path of the app (such as /login), or a URL on the origin of `url` (AUTHLIB_URL)");
  }
}

/** The configuration error of the origin settings (custom pages included), or `undefined` when they are usable. */
export function checkOriginConfig(
  config: Pick<AuthConfig, "url" | "trustedHosts" | "redirectProxyAllowedOrigins" | "pages">,
): InvalidOriginConfig | undefined {
  try {
    const canonical = config.url !== undefined ? canonicalOrigin(config.url) : undefined;
    for (const pattern of config.trustedHosts ?? []) compileHostPattern(pattern);
    for (const pattern of config.redirectProxyAllowedOrigins ?? []) compileOriginPattern(pattern);
    for (const [name, value] of Object.entries(config.pages ?? {})) if (value !== undefined) checkCustomPage(name, value, canonical);
  } catch (error) {
    if (error instanceof InvalidOriginConfig) return error;
    throw error;
  }
  return undefined;
}

/** The comma-separated values of a header (a duplicated header arrives joined with `, `), trimmed. */
function headerValues(request: Pick<Request, "headers">, name: string): string[] | undefined {
  const value = request.headers.get(name);
  return value === null ? undefined : value.split(",").map((v) => v.trim());
}

/** `proto://host` as the WHATWG parser reads it, or `undefined` when it is not a plain host. */
function parseOrigin(proto: string, host: string): URL | undefined {
  if (proto !== "http" && proto !== "https") return undefined;
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return undefined;
  try {
    return new URL(`${proto}://${host}`);
  } catch {
    return undefined;
  }
}

/** At most this many hosts are remembered by one instance's unrestricted origin rule (oldest out). */
const MAX_REMEMBERED_HOSTS = 64;

/**
 * Mode 3, the rule of one instance: the first forwarded value wins; anything malformed falls back to the
 * request URL. `parseOrigin` is remembered by protocol and host (hosts come from request headers: at most
 * {@link MAX_REMEMBERED_HOSTS}, and what is kept is a pure function of the text), so a request from a host
 * seen before is not parsed again. The memory is the instance's, made with its rule.
 */
function unrestrictedOriginRule(): OriginPolicy {
  const remembered = new Map<string, string | undefined>();
  const originOf = (proto: string, host: string): string | undefined => {
    // A header value cannot hold a line feed, so the key is unambiguous.
    const key = `${proto}\n${host}`;
    if (remembered.has(key)) return remembered.get(key);
    const origin = parseOrigin(proto, host)?.origin;
    if (remembered.size >= MAX_REMEMBERED_HOSTS) remembered.delete(remembered.keys().next().value as string);
    remembered.set(key, origin);
    return origin;
  };
  return (request, url) => {
    const host = headerValues(request, "x-forwarded-host")?.[0] ?? request.headers.get("host") ?? url.host;
    const proto = headerValues(request, "x-forwarded-proto")?.[0] ?? url.protocol.slice(0, -1);
    return originOf(proto, host) ?? url.origin;
  };
}

/** Mode 2: one unambiguous, trusted host and protocol, or `UntrustedHost`. */
function listedOrigin(request: Pick<Request, "headers">, url: URL, trustedHosts: readonly HostPattern[]): string {
  const hosts = headerValues(request, "x-forwarded-host") ?? headerValues(request, "host") ?? [url.host];
  const protos = (headerValues(request, "x-forwarded-proto") ?? [url.protocol.slice(0, -1)]).map((p) => p.toLowerCase());
  const refuse = (why: string) =>
    new UntrustedHost(`Refused a request: ${why}. Add the host to trustedHosts (AUTH_TRUSTED_HOSTS) if it is yours.`);
  if (new Set(protos).size !== 1 || new Set(hosts.map((h) => h.toLowerCase())).size !== 1) {
    throw refuse("its forwarded host or protocol headers hold several different values");
  }
  const origin = parseOrigin(protos[0] as string, hosts[0] as string);
  if (!origin) throw refuse("its host or protocol header is malformed");
  if (!matchesAny(origin, trustedHosts)) throw refuse(`its host ${JSON.stringify(origin.host)} is not a trusted host`);
  return origin.origin;
}

/**
 * The app's origin for one request: `url` is the request's URL, parsed once by the caller; only the
 * request's headers are read.
 */
export type OriginPolicy = (request: Pick<Request, "headers">, url: URL) => string;

/**
 * The origin rule of a configuration, compiled once (the canonical URL parsed, the trusted-host patterns
 * compiled): the instance keeps it, so no request parses or compiles them again. Throws
 * `InvalidOriginConfig` for a malformed `config.url` or pattern (the start-up check reports those first).
 * The rule it returns throws `UntrustedHost` when a trusted-host list is set and the request's effective
 * host is not on it (or its headers are ambiguous).
 */
export function compileOriginPolicy(config: OriginConfig): OriginPolicy {
  if (config.url !== undefined) {
    const canonical = canonicalOrigin(config.url);
    return () => canonical;
  }
  if (config.trustedHosts && config.trustedHosts.length > 0) {
    const patterns = config.trustedHosts.map((p) => compileHostPattern(p));
    return (request, url) => listedOrigin(request, url, patterns);
  }
  return config.trustHost ? unrestrictedOriginRule() : (_request, url) => url.origin;
}

/**
 * The origin (`scheme://host[:port]`) of the app for this request, per the module's rules (see
 * {@link compileOriginPolicy}, which the instance uses; this compiles the rule for one call).
 */
export function resolveOrigin(request: Pick<Request, "headers">, config: OriginConfig, url: URL): string {
  return compileOriginPolicy(config)(request, url);
}

/**
 * True when, in production (`NODE_ENV=production`), the origin comes from headers any client can set:
 * `trustHost` without `url` and without `trustedHosts`. The warning `trust-host-unrestricted` is said
 * once per configuration, when it is resolved (`resolve.ts`).
 */
export function shouldWarnUnrestrictedTrustHost(config: AuthConfig, nodeEnv: string | undefined): boolean {
  return nodeEnv === "production" && !!config.trustHost && config.url === undefined && (config.trustedHosts?.length ?? 0) === 0;
}
