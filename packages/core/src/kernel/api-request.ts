/**
 * The request of an `auth.api` operation: the caller's request (or its headers, URL and address) as the
 * parsed request of the operation's route, marked in process. The operation's input is not in it: the
 * pipeline parses the caller's typed object (`pipeline.ts` `performCall`). Only an operation that reads the
 * request itself (an app's operation without a schema) gets `fields` as its body (a POST) or query (a GET).
 *
 * @module api-request
 */
import { UnknownAction } from "../errors.js";
import { requestCookies } from "../http/request.js";
import type { RequestLike } from "../types/api.js";
import type { RequestInternal } from "../types/internal.js";
import type { OperationDeclaration } from "../types/operation.js";
import type { UsableAuth } from "./pipeline.js";

/** What a route that names a provider, or an operation without a schema, reads of the request itself. */
export interface RouteParts {
  /** The provider of a route that names one (`signin/:provider`): a provider's id, never anything else. */
  providerId?: string;
  /** The body (a POST) of an operation that reads the request itself. */
  body?: Record<string, unknown>;
  /** The query of a GET operation without a schema (its fields). */
  query?: Record<string, string>;
}

/** The parsed request of `operation` for the caller's request `like`, marked in process. */
export function inProcessRequest(
  resolved: UsableAuth,
  like: RequestLike,
  operation: Pick<OperationDeclaration, "method" | "path">,
  parts: RouteParts = {},
): RequestInternal {
  const { method, path: route } = operation;
  const headers = operationHeaders(like);
  const base = urlOf(resolved, like, headers);
  const { providerId } = parts;
  const path = providerId === undefined ? `/${withoutProvider(route)}` : `/${withoutProvider(route)}/${encodeURIComponent(providerId)}`;
  const url = new URL(`${resolved.basePath}${path}`, base);
  for (const [key, value] of Object.entries(parts.query ?? {})) url.searchParams.set(key, value);
  const parsed: Omit<RequestInternal, "request"> = {
    url,
    method,
    action: firstSegment(route),
    route,
    path,
    providerId,
    query: parts.query ?? {},
    body: parts.body ?? {},
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
      made ??= new Request(url, { method, headers });
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

/** `route` without its provider segment (`signin/:provider` -> `signin`). */
function withoutProvider(route: string): string {
  return route.endsWith("/:provider") ? route.slice(0, -"/:provider".length) : route;
}

/** The first segment of `route` (its action). */
function firstSegment(route: string): string {
  const slash = route.indexOf("/");
  return slash === -1 ? route : route.slice(0, slash);
}
