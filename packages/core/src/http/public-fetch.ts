/**
 * Fetching a document at a URL that someone else gave us (a client's metadata document for the
 * authorization server, an identity provider's SAML metadata for SSO) without letting that URL reach the
 * server's own network: a server-side request forgery made harmless.
 *
 * - the URL is `https:`, without userinfo or fragment, of at most 2000 characters ({@link checkPublicUrl});
 * - its host is resolved once, and every address it resolves to must be public (no loopback, private,
 *   link-local, unique-local, CGNAT, multicast, unspecified, reserved, documentation, IPv4-mapped or
 *   translated IPv6 address), unless `allowPrivateAddresses`;
 * - the connection goes to that checked address (the name is not resolved a second time, so DNS rebinding
 *   finds nothing to rebind), with the name as the TLS server name and `Host`, and the certificate checked
 *   against the name;
 * - no redirect is followed, the answer must be `200` with a content type the caller accepts, its body is
 *   cut off past `maxBytes`, and the whole (resolution included) gives up after `timeout`.
 *
 * What differs between callers (the content types, the size, the error) is a parameter; every refusal is
 * the caller's error, built from a reason that completes a sentence about the URL ("is not an https: URL").
 * It needs `node:dns` and `node:https` (Node, Deno, Bun, workerd with `nodejs_compat`), asked of the runtime
 * when called, never imported, so the package loads everywhere; where they are missing the fetch is refused.
 *
 * @module http/public-fetch
 */
import type { IncomingMessage } from "node:http";
import { builtin } from "../crypto/builtin.js";
import { ipv4Bytes, ipv6Groups, isPublicAddress } from "./public-address.js";

export { isPublicAddress } from "./public-address.js";

/** Makes the caller's error from a reason (`why` follows the URL: "has a fragment"). */
export type PublicFetchRefusal = (why: string) => Error;

/** Where the document may come from and how long to wait for it: the options a caller passes through. */
export interface PublicFetchLimits {
  /** Allow loopback and private addresses (development only). Default `false`. */
  allowPrivateAddresses?: boolean;
  /** Give up after this many milliseconds, resolution included. Default 5000. */
  timeout?: number;
  /** Resolves a host name to its addresses (default: the system's, `node:dns` `lookup` with `all`). For tests. */
  lookup?: (host: string) => Promise<string[]>;
  /** A PEM certificate to trust besides the system's (a local server's self-signed certificate, a private CA). */
  ca?: string;
}

/** Options of {@link fetchPublicDocument}: the limits, and what the caller reads. */
export interface PublicFetchOptions extends PublicFetchLimits {
  /** The largest document, in bytes. */
  maxBytes: number;
  /** The `Accept` header sent. */
  accept: string;
  /** Whether a content type (lower case, without parameters) is one the caller reads. */
  acceptsType: (type: string) => boolean;
  /** What the caller reads, for the refusal of another content type ("JSON", "XML"). */
  expected: string;
  /** The caller's error for every refusal. */
  refuse: PublicFetchRefusal;
}

const DEFAULT_TIMEOUT = 5000;
const MAX_URL = 2000;

/**
 * `given` parsed, when it may be fetched at all: a string of at most 2000 characters, an absolute `https:`
 * URL, without fragment, without userinfo. Otherwise the caller's error (`refuse`).
 */
export function checkPublicUrl(given: string, refuse: PublicFetchRefusal): URL {
  if (given.length > MAX_URL) throw refuse(`is longer than ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw refuse("is not a URL");
  }
  if (url.protocol !== "https:") throw refuse("is not an https: URL");
  if (given.includes("#")) throw refuse("has a fragment");
  if (url.username !== "" || url.password !== "" || /^https:\/\/[^/?#]*@/i.test(given)) throw refuse("has credentials");
  return url;
}

/** The host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");
const isAddress = (text: string) => ipv4Bytes(text) !== null || ipv6Groups(text) !== null;

/** The host's addresses: the literal itself for an IP host, else one resolution (a failure: `null`). */
async function addressesOf(url: URL, options: PublicFetchOptions): Promise<string[] | null> {
  const host = bareHost(url);
  if (isAddress(host)) return [host];
  let resolve = options.lookup;
  if (!resolve) {
    const dns = builtin<typeof import("node:dns")>("node:dns");
    if (!dns?.promises?.lookup) throw options.refuse("cannot be fetched: this runtime has no node:dns");
    resolve = async (name) => (await dns.promises.lookup(name, { all: true, verbatim: true })).map((answer) => answer.address);
  }
  try {
    return await resolve(host);
  } catch {
    return null;
  }
}

/** The address to connect to: the first of the host's, every one of which must be public unless allowed. */
async function checkedAddress(url: URL, options: PublicFetchOptions): Promise<string> {
  const addresses = await addressesOf(url, options);
  if (!Array.isArray(addresses) || addresses.length === 0) throw options.refuse("has a host that does not resolve");
  for (const address of addresses) {
    if (typeof address !== "string" || !isAddress(address)) throw options.refuse("has a host that resolves to no address");
    if (!options.allowPrivateAddresses && !isPublicAddress(address))
      throw options.refuse(`has a host that resolves to a non-public address (${address})`);
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

/** The refusal of an answer that breaks a rule, or `undefined` for one whose body may be read. */
function answerRefusal(response: IncomingMessage, options: PublicFetchOptions): string | undefined {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) return `answered a redirect (${status}), which is not followed`;
  if (status !== 200) return `answered ${status}, not 200`;
  const type = (response.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!options.acceptsType(type)) return `answered ${JSON.stringify(type || "no content type")}, not ${options.expected}`;
  if (Number(response.headers["content-length"] ?? 0) > options.maxBytes)
    return `answered a document larger than ${options.maxBytes} bytes`;
  return undefined;
}

/** The document's bytes, read from the checked address; throws the caller's error with what went wrong. */
function download(url: URL, address: string, options: PublicFetchOptions, signal: AbortSignal): Promise<Uint8Array> {
  const https = builtin<typeof import("node:https")>("node:https");
  if (!https?.request) throw options.refuse("cannot be fetched: this runtime has no node:https");
  const host = bareHost(url);
  const timedOut = `took longer than ${options.timeout ?? DEFAULT_TIMEOUT} ms to answer`;
  return new Promise((resolve, reject) => {
    const request = https.request({
      host,
      port: url.port === "" ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: { host: url.host, accept: options.accept },
      // The name for SNI and the certificate check; an IP host has no SNI (and is checked as an IP).
      servername: isAddress(host) ? undefined : host,
      lookup: pinnedLookup(address) as never,
      // A fresh connection: a pooled one may have been made to another address, under other options.
      agent: false,
      ca: options.ca,
      signal,
    });
    const fail = (why: string) => {
      request.destroy();
      reject(options.refuse(why));
    };
    request.on("error", (error) => fail(signal.aborted ? timedOut : `could not be fetched (${error.message})`));
    request.on("response", (response: IncomingMessage) => {
      const refused = answerRefusal(response, options);
      if (refused) return fail(refused);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) fail(`answered a document larger than ${options.maxBytes} bytes`);
        else chunks.push(chunk);
      });
      response.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
      response.on("error", () => fail(signal.aborted ? timedOut : "broke off its answer"));
    });
    request.end();
  });
}

/** `promise`, or a timeout refusal as soon as `signal` aborts. */
function beforeAbort<T>(promise: Promise<T>, signal: AbortSignal, refusal: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(refusal());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The text (UTF-8) of the document at `url` (already checked, e.g. by {@link checkPublicUrl}), fetched
 * without letting the URL reach the server's own network (see the module): its host resolved once and
 * every address public (unless `allowPrivateAddresses`), the connection made to that address with the host
 * as TLS server name, no redirect, a `200` answer of an accepted content type and at most `maxBytes`,
 * within `timeout` ms (default 5000). Every refusal is `options.refuse(why)`.
 */
export async function fetchPublicDocument(url: URL, options: PublicFetchOptions): Promise<string> {
  if (url.protocol !== "https:") throw options.refuse("is not an https: URL");
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    const resolved = checkedAddress(url, options);
    const address = await beforeAbort(resolved, controller.signal, () => options.refuse(`took longer than ${timeout} ms to resolve`));
    const bytes = await download(url, address, { ...options, timeout }, controller.signal);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw options.refuse("answered a document that is not UTF-8");
    }
  } finally {
    clearTimeout(timer);
  }
}
