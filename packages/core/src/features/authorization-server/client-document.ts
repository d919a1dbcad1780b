/**
 * Fetching a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document): a client whose id
 * is an https URL publishes its metadata there, and the authorization server fetches it. The URL comes from
 * anyone, so the fetch is a server-side request forgery waiting to happen; this module makes it one that
 * cannot reach the server's own network:
 *
 * - the URL is `https:`, with a path, without userinfo, fragment or dot segments, written in normal form;
 * - its host is resolved once, and every address it resolves to must be public (no loopback, private,
 *   link-local, unique-local, CGNAT, multicast, unspecified, reserved, documentation, IPv4-mapped or
 *   translated IPv6 address), unless `allowPrivateAddresses`;
 * - the connection goes to that checked address (the name is not resolved a second time, so DNS rebinding
 *   finds nothing to rebind), with the name as the TLS server name and `Host`, and the certificate checked
 *   against the name;
 * - no redirect is followed, the answer must be `200` with a JSON content type, its body is cut off past
 *   `maxBytes`, and the whole (resolution included) gives up after `timeout`.
 *
 * It needs `node:dns` and `node:https` (Node, Deno, Bun, workerd with `nodejs_compat`), asked of the runtime
 * when called, never imported, so the package loads everywhere; where they are missing the fetch is refused.
 *
 * @module features/authorization-server/client-document
 */
import type { IncomingMessage } from "node:http";
import { builtin } from "../../crypto/builtin.js";
import { OAuthError } from "./oauth-error.js";

/** Options of {@link fetchClientDocument}. */
export interface ClientDocumentFetchOptions {
  /** Allow loopback and private addresses (development only). Default `false`. */
  allowPrivateAddresses?: boolean;
  /** Give up after this many milliseconds, resolution included. Default 5000. */
  timeout?: number;
  /** The largest document, in bytes. Default 5120. */
  maxBytes?: number;
  /** Resolves a host name to its addresses (default: the system's, `node:dns` `lookup` with `all`). For tests. */
  lookup?: (host: string) => Promise<string[]>;
  /** A PEM certificate to trust besides the system's. For tests only (a local server's self-signed certificate). */
  ca?: string;
}

const DEFAULT_TIMEOUT = 5000;
const DEFAULT_MAX_BYTES = 5120;
const MAX_URL = 2000;

function refuse(clientIdUrl: string, why: string): never {
  const shown = clientIdUrl.length > 100 ? `${clientIdUrl.slice(0, 100)}…` : clientIdUrl;
  throw new OAuthError("invalid_client", `The client id ${JSON.stringify(shown)} ${why}.`);
}

/**
 * The client-id URL parsed, when it may be fetched: a string of at most 2000 characters, an absolute
 * `https:` URL with a path (not just `/`), no userinfo, no fragment, no `.`/`..` segment (plain or
 * percent-encoded), and written exactly as the URL parser writes it (the client id is compared as a string,
 * so it has one spelling). Throws `OAuthError("invalid_client")` otherwise.
 */
export function checkClientIdUrl(clientIdUrl: unknown): URL {
  if (typeof clientIdUrl !== "string") throw new OAuthError("invalid_client", "The client id is not a string.");
  if (clientIdUrl.length > MAX_URL) refuse(clientIdUrl, `is longer than ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(clientIdUrl);
  } catch {
    refuse(clientIdUrl, "is not a URL");
  }
  if (url.protocol !== "https:") refuse(clientIdUrl, "is not an https: URL");
  if (clientIdUrl.includes("#")) refuse(clientIdUrl, "has a fragment");
  if (url.username !== "" || url.password !== "" || /^https:\/\/[^/?#]*@/i.test(clientIdUrl)) refuse(clientIdUrl, "has credentials");
  const rawPath = clientIdUrl.replace(/^[^:]*:\/\/[^/?#]*/, "").replace(/[?#].*$/, "");
  const dotSegment = rawPath.split(/[/\\]/).some((segment) => /^(\.|\.\.)$/.test(segment.replace(/%2e/gi, ".")));
  if (dotSegment) refuse(clientIdUrl, "has a . or .. path segment");
  if (url.pathname === "/") refuse(clientIdUrl, "has no path");
  if (clientIdUrl !== url.href) refuse(clientIdUrl, `is not in normal form (${url.href})`);
  return url;
}

/** The four bytes of a dotted-quad IPv4 address, or `null`. */
function ipv4Bytes(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255)) return null;
  return parts.map(Number);
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted-quad tail allowed, no zone), or `null`. */
function ipv6Groups(address: string): number[] | null {
  if (!/^[0-9A-Fa-f:.]+$/.test(address)) return null;
  let text = address;
  if (text.includes(".")) {
    // A dotted-quad tail (`::ffff:127.0.0.1`) is the last two groups.
    const lastColon = text.lastIndexOf(":");
    const quad = lastColon < 0 ? null : ipv4Bytes(text.slice(lastColon + 1));
    if (!quad) return null;
    const [a, b, c, d] = quad as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groupsOf(halves[0] as string);
  const rest = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (![...head, ...rest].every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = Array.from({ length: 8 - known }, () => 0);
  return [...head, ...zeros.map(String), ...rest].map((group) => Number.parseInt(group, 16));
}

/** IPv4 ranges that are not the public internet (IANA special-purpose registry): [first octets, prefix length]. */
const IPV4_NOT_PUBLIC: ReadonlyArray<readonly [number[], number]> = [
  [[0], 8], // "this network", 0.0.0.0
  [[10], 8], // private
  [[100, 64], 10], // CGNAT shared space
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata at 169.254.169.254)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, and the broadcast address
];

function inIpv4Range(bytes: readonly number[], [prefix, length]: readonly [number[], number]): boolean {
  let bits = length;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] as number) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function isPublicIpv4(bytes: readonly number[]): boolean {
  return !IPV4_NOT_PUBLIC.some((range) => inIpv4Range(bytes, range));
}

/**
 * IPv6: only global unicast (`2000::/3`) is public, less its special blocks: `2001::/23` (IETF protocol
 * assignments: Teredo, benchmarking, ORCHID…), `2001:db8::/32` (documentation), `2002::/16` (6to4, an IPv4
 * address inside) and `3fff::/20` (documentation). Everything outside `2000::/3` is refused with it:
 * unspecified, loopback, IPv4-mapped and -compatible, NAT64 (`64:ff9b::/96`), discard, unique-local,
 * link-local, site-local, multicast.
 */
function isPublicIpv6(groups: readonly number[]): boolean {
  const [first, second] = groups as [number, number];
  if ((first & 0xe000) !== 0x2000) return false;
  if (first === 0x2001 && second < 0x0200) return false;
  if (first === 0x2001 && second === 0x0db8) return false;
  if (first === 0x2002) return false;
  if (first === 0x3fff && second < 0x1000) return false;
  return true;
}

/**
 * True when `address` (an IPv4 dotted quad or an IPv6 address, as a resolver gives them) is on the public
 * internet; `false` for every special-purpose range (see the module), and for anything that is no address.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = ipv4Bytes(address);
  if (v4) return isPublicIpv4(v4);
  const v6 = ipv6Groups(address);
  return v6 !== null && isPublicIpv6(v6);
}

/** The host's addresses: the literal itself for an IP host, else one resolution. */
async function addressesOf(url: URL, options: ClientDocumentFetchOptions): Promise<string[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (ipv4Bytes(host) || ipv6Groups(host)) return [host];
  if (options.lookup) return options.lookup(host);
  const dns = builtin<typeof import("node:dns")>("node:dns");
  if (!dns?.promises?.lookup) refuse(url.href, "cannot be fetched: this runtime has no node:dns");
  const answers = await dns.promises.lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** The address to connect to: the first of the host's, every one of which must be public unless allowed. */
async function checkedAddress(url: URL, options: ClientDocumentFetchOptions): Promise<string> {
  let addresses: string[];
  try {
    addresses = await addressesOf(url, options);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    refuse(url.href, "has a host that does not resolve");
  }
  if (!Array.isArray(addresses) || addresses.length === 0) refuse(url.href, "has a host that does not resolve");
  for (const address of addresses) {
    if (typeof address !== "string" || (!ipv4Bytes(address) && !ipv6Groups(address)))
      refuse(url.href, "has a host that resolves to no address");
    if (!options.allowPrivateAddresses && !isPublicAddress(address)) {
      refuse(url.href, `has a host that resolves to a non-public address (${address})`);
    }
  }
  return addresses[0] as string;
}

type LookupCallback = (error: Error | null, address: string | Array<{ address: string; family: number }>, family?: number) => void;

/** A `lookup` for `node:https` that answers the checked address, whatever it is asked (one or all). */
function pinnedLookup(address: string) {
  const family = address.includes(":") ? 6 : 4;
  return (_host: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    if (typeof options === "object" && options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const JSON_TYPE = /^application\/(?:json|[a-z0-9.!#$&^_-]+\+json)$/;

/** The document's bytes, read from the checked address; throws `OAuthError` with what went wrong. */
function download(url: URL, address: string, options: ClientDocumentFetchOptions, signal: AbortSignal): Promise<Uint8Array> {
  const https = builtin<typeof import("node:https")>("node:https");
  if (!https?.request) refuse(url.href, "cannot be fetched: this runtime has no node:https");
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = host !== url.hostname || ipv4Bytes(host) !== null;
  return new Promise((resolve, reject) => {
    const request = https.request({
      host,
      port: url.port === "" ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: { host: url.host, accept: "application/json" },
      // The name for SNI and the certificate check; an IP host has no SNI (and is checked as an IP).
      servername: literal ? undefined : host,
      lookup: pinnedLookup(address) as never,
      // A fresh connection: a pooled one may have been made to another address, under other options.
      agent: false,
      ca: options.ca,
      signal,
    });
    const fail = (why: string) => {
      request.destroy();
      try {
        refuse(url.href, why);
      } catch (error) {
        reject(error);
      }
    };
    request.on("error", (error) => {
      fail(
        signal.aborted ? `took longer than ${options.timeout ?? DEFAULT_TIMEOUT} ms to answer` : `could not be fetched (${error.message})`,
      );
    });
    request.on("response", (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) return fail(`answered a redirect (${status}), which is not followed`);
      if (status !== 200) return fail(`answered ${status}, not 200`);
      const type = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (!JSON_TYPE.test(type)) return fail(`answered ${JSON.stringify(type || "no content type")}, not JSON`);
      const declared = Number(response.headers["content-length"] ?? 0);
      if (declared > maxBytes) return fail(`answered a document larger than ${maxBytes} bytes`);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail(`answered a document larger than ${maxBytes} bytes`);
        else chunks.push(chunk);
      });
      response.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
      response.on("error", () =>
        fail(signal.aborted ? `took longer than ${options.timeout ?? DEFAULT_TIMEOUT} ms to answer` : "broke off its answer"),
      );
    });
    request.end();
  });
}

/** `promise`, or a timeout refusal as soon as `signal` aborts. */
function beforeAbort<T>(promise: Promise<T>, signal: AbortSignal, url: URL, timeout: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      try {
        refuse(url.href, `took longer than ${timeout} ms to resolve`);
      } catch (error) {
        reject(error);
      }
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The parsed JSON at `clientIdUrl`, fetched without letting the URL reach the server's own network (see the
 * module): the URL checked by {@link checkClientIdUrl}, its host resolved once and every address public
 * (unless `allowPrivateAddresses`), the connection made to that address with the host as TLS server name,
 * no redirect, a `200` JSON answer of at most `maxBytes` (default 5120), within `timeout` ms (default 5000).
 * What the document says is for `clientDocumentClient` to check. Throws `OAuthError("invalid_client")`.
 */
export async function fetchClientDocument(clientIdUrl: string, options: ClientDocumentFetchOptions = {}): Promise<unknown> {
  const url = checkClientIdUrl(clientIdUrl);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    const address = await beforeAbort(checkedAddress(url, options), controller.signal, url, timeout);
    const bytes = await download(url, address, { ...options, timeout }, controller.signal);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      refuse(url.href, "answered a document that is not UTF-8");
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      refuse(url.href, "answered a document that is not JSON");
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Options of {@link clientDocuments}: the fetch's, and how long and how many documents are kept. */
export interface ClientDocumentCacheOptions extends ClientDocumentFetchOptions {
  /** How long (seconds) a fetched document is used before it is fetched again. Default 3600. */
  cacheFor?: number;
  /** The most documents kept; the oldest is dropped for a new one. Default 1000. */
  maxEntries?: number;
  /** The clock (milliseconds since the epoch). For tests. */
  now?: () => number;
}

/**
 * A fetch of client metadata documents that keeps each fetched document `cacheFor` seconds, for at most
 * `maxEntries` URLs (the oldest dropped first). Requests for a URL while it is being fetched share that
 * fetch, so a burst of authorization requests makes one request to the client's host. A failed fetch is
 * not kept: the next request tries again (the endpoints' rate limits bound how often). Each caller gets
 * its own copy of the document.
 */
export function clientDocuments(options: ClientDocumentCacheOptions = {}): (clientIdUrl: string) => Promise<unknown> {
  const { cacheFor = 3600, maxEntries = 1000, now = Date.now, ...fetchOptions } = options;
  const kept = new Map<string, { document: Promise<unknown>; until: number }>();
  return async (clientIdUrl) => {
    const entry = kept.get(clientIdUrl);
    if (entry && entry.until > now()) return structuredClone(await entry.document);
    kept.delete(clientIdUrl);
    if (kept.size >= maxEntries) kept.delete(kept.keys().next().value as string);
    const document = fetchClientDocument(clientIdUrl, fetchOptions);
    const fresh = { document, until: Number.POSITIVE_INFINITY };
    kept.set(clientIdUrl, fresh);
    try {
      await document;
      fresh.until = now() + cacheFor * 1000;
    } catch (error) {
      if (kept.get(clientIdUrl) === fresh) kept.delete(clientIdUrl);
      throw error;
    }
    return structuredClone(await document);
  };
}
