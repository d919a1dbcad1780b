/**
 * The request of an `auth.api` operation: the caller's request (or its headers) turned into the parsed
 * request of the route the operation runs, as if its form had been posted there, marked in process.
 *
 * @module api-request
 */
import { UnknownAction } from "./errors.js";
import type { Cookie } from "./http/cookies.js";
import { requestCookies } from "./http/request.js";
import type { AuthAction, RequestInternal } from "./internal-types.js";
import type { UsableAuth } from "./pipeline.js";

/**
 * The request an operation is made for: the `Request` itself, or its headers (the `Cookie` header carries
 * the session; `Origin`, `Sec-Fetch-Site`, `Host` and `X-Forwarded-*` are read as for any request) with
 * the URL it came to when known. Without `url`, the origin is the configuration's `url` (`AUTHLIB_URL`),
 * else the `Host` header's, over http: pass `url` (or the `Request`) when the app is served over https.
 */
export type RequestLike =
  | Request
  | {
      /** The request's headers. */
      headers: HeadersInit;
      /** The URL the request came to (any path: only its origin is used). */
      url?: string | URL;
      /** The address of the connection the request came on: the per-client rate limits count by it. */
      clientAddress?: string;
    };

/** Where to send the browser after an operation, and the cookies to set. */
export interface RedirectResult {
  /** An absolute URL: the provider's authorization URL, the verify-request page, or where the user wanted to go. */
  redirect: string;
  /** Cookies to set, in order: the session cookie after a sign-in, the flow's check cookies, … */
  cookies: Cookie[];
}

/** The answer of an operation whose route redirects, as a {@link RedirectResult}. */
export function redirectOf(result: { redirect?: string; cookies?: Cookie[] }): RedirectResult {
  // Every route an operation runs answers a redirect; anything else is authlib's own bug, said as such.
  if (!result.redirect) throw new UnknownAction("The operation answered without a redirect.");
  return { redirect: result.redirect, cookies: result.cookies ?? [] };
}

/** An operation: the route it runs, and its form or query. */
export interface Operation {
  method: "GET" | "POST";
  action: AuthAction;
  providerId?: string;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
}

/** The parsed request of an operation: as if its form had been posted to its route, marked in process. */
export function inProcessRequest(resolved: UsableAuth, like: RequestLike, operation: Operation): RequestInternal {
  const headers = operationHeaders(like);
  const base = urlOf(resolved, like, headers);
  const path = `${resolved.basePath}/${operation.action}${operation.providerId ? `/${encodeURIComponent(operation.providerId)}` : ""}`;
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(operation.query ?? {})) url.searchParams.set(key, value);
  const parsed: Omit<RequestInternal, "request"> = {
    url,
    method: operation.method,
    action: operation.action,
    providerId: operation.providerId,
    query: operation.query ?? {},
    body: operation.body ?? {},
    cookies: requestCookies(headers),
    headers,
    connectionAddress: like instanceof Request ? undefined : like.clientAddress,
    inProcess: true,
  };
  // The `Request` handed on (to `authorize`, to `sendVerificationRequest`) is made only when one asks:
  // a session read never does, and a `Request` costs more than the rest of the read.
  let made: Request | undefined;
  return Object.defineProperty(parsed, "request", {
    enumerable: true,
    get: () => {
      made ??= new Request(url, { method: operation.method, headers });
      return made;
    },
  }) as RequestInternal;
}

/**
 * The headers of the operation's request: the incoming ones, without their body framing (the operation's
 * request has no body of its own). A `Request`'s own headers are used as they are when there is nothing to
 * take out (a session read), since nothing here changes them.
 */
function operationHeaders(like: RequestLike): Headers {
  if (like instanceof Request && !like.headers.has("content-length") && !like.headers.has("transfer-encoding")) return like.headers;
  let headers: Headers;
  try {
    headers = new Headers(like.headers);
  } catch (error) {
    throw new UnknownAction("The request's headers are not valid.", { cause: error as Error });
  }
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return headers;
}

/** The URL the request came to: its own, else the configuration's, else its `Host` header's (http). */
function urlOf(resolved: UsableAuth, like: RequestLike, headers: Headers): URL {
  const host = headers.get("host");
  const given = like.url ?? resolved.config.url ?? (host ? `http://${host}` : undefined);
  if (given === undefined) throw new UnknownAction("The request has neither a URL nor a Host header: pass the Request, or its url.");
  try {
    return new URL(given);
  } catch (error) {
    throw new UnknownAction("The request's URL (or Host header) is not valid.", { cause: error as Error });
  }
}
