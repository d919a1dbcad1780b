/**
 * Fetching a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document): a client whose id
 * is an https URL publishes its metadata there, and the authorization server fetches it. The URL comes from
 * anyone, so the fetch is a server-side request forgery waiting to happen; this module makes it one that
 * cannot reach the server's own network: the public fetch (`http/public-fetch.ts`, shared with SSO's
 * IdP metadata) resolves the host once, connects only to public addresses (unless
 * `allowPrivateAddresses`), pinned, follows no redirect, and caps size and time. This module adds what a
 * client id is: an `https:` URL with a path, without dot segments, written in normal form, whose answer is
 * JSON of at most 5120 bytes by default.
 *
 * @module features/authorization-server/client-document
 */
import { checkPublicUrl, fetchPublicDocument, type PublicFetchLimits } from "../../http/public-fetch.js";
import { OAuthError } from "./oauth-error.js";

export { isPublicAddress } from "../../http/public-fetch.js";

/** Options of {@link fetchClientDocument}: the public fetch's limits, and the largest document. */
export interface ClientDocumentFetchOptions extends PublicFetchLimits {
  /** The largest document, in bytes. Default 5120. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 5120;

/** The refusal of `clientIdUrl`: `why` completes the sentence about it. */
function refusal(clientIdUrl: string) {
  const shown = clientIdUrl.length > 100 ? `${clientIdUrl.slice(0, 100)}…` : clientIdUrl;
  return (why: string) => new OAuthError("invalid_client", `The client id ${JSON.stringify(shown)} ${why}.`);
}

/**
 * The client-id URL parsed, when it may be fetched: a string of at most 2000 characters, an absolute
 * `https:` URL with a path (not just `/`), no userinfo, no fragment, no `.`/`..` segment (plain or
 * percent-encoded), and written exactly as the URL parser writes it (the client id is compared as a string,
 * so it has one spelling). Throws `OAuthError("invalid_client")` otherwise.
 */
export function checkClientIdUrl(clientIdUrl: unknown): URL {
  if (typeof clientIdUrl !== "string") throw new OAuthError("invalid_client", "The client id is not a string.");
  const refuse = refusal(clientIdUrl);
  const url = checkPublicUrl(clientIdUrl, refuse);
  const rawPath = clientIdUrl.replace(/^[^:]*:\/\/[^/?#]*/, "").replace(/[?#].*$/, "");
  const dotSegment = rawPath.split(/[/\\]/).some((segment) => /^(\.|\.\.)$/.test(segment.replace(/%2e/gi, ".")));
  if (dotSegment) throw refuse("has a . or .. path segment");
  if (url.pathname === "/") throw refuse("has no path");
  if (clientIdUrl !== url.href) throw refuse(`is not in normal form (${url.href})`);
  return url;
}

const JSON_TYPE = /^application\/(?:json|[a-z0-9.!#$&^_-]+\+json)$/;

/**
 * The parsed JSON at `clientIdUrl`, fetched without letting the URL reach the server's own network (see the
 * module): the URL checked by {@link checkClientIdUrl}, its host resolved once and every address public
 * (unless `allowPrivateAddresses`), the connection made to that address with the host as TLS server name,
 * no redirect, a `200` JSON answer of at most `maxBytes` (default 5120), within `timeout` ms (default 5000).
 * What the document says is for `clientDocumentClient` to check. Throws `OAuthError("invalid_client")`.
 */
export async function fetchClientDocument(clientIdUrl: string, options: ClientDocumentFetchOptions = {}): Promise<unknown> {
  const url = checkClientIdUrl(clientIdUrl);
  const refuse = refusal(url.href);
  const text = await fetchPublicDocument(url, {
    ...options,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    accept: "application/json",
    acceptsType: (type) => JSON_TYPE.test(type),
    expected: "JSON",
    refuse,
  });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refuse("answered a document that is not JSON");
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
