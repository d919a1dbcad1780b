/**
 * Turns a Web `Request` into the parsed request the actions work on. Malformed input is an
 * `RouteNotFound` / `MethodNotAllowed` (bad path or method) or an empty body, never an exception escaping `Auth()`.
 */
import { parse as parseCookies } from "cookie";
import { MethodNotAllowed, RouteNotFound, UnknownAction } from "../errors.js";
import type { RequestInternal } from "../types/internal.js";
import { readAtMost } from "./read-stream.js";

/** Bodies larger than this are not parsed (a sign-in form is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

/** Where a path leads: its first segment, the route template matched for the method, a provider's id. */
export interface RouteMatch {
  action: string;
  /** `undefined` when the path exists, but not for this method. */
  route?: string;
  providerId?: string;
  /** The decoded segments below the first one, for a subtree route (`scim/*`). */
  subPath?: string[];
}

/** The paths an instance answers (its router, `kernel/router.ts`): `undefined` for a path it does not know. */
export interface RoutePaths {
  /** `deeper`: the path has more segments after `second` (only a subtree route, `scim/*`, takes it). */
  match(method: string, first: string, second: string | undefined, deeper?: boolean): RouteMatch | undefined;
}

/** The methods authlib answers: GET and POST everywhere, PUT, PATCH and DELETE on the routes that declare them (SCIM). */
const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** True for a method authlib answers (see {@link METHODS}). */
function isAnsweredMethod(method: string): method is RequestInternal["method"] {
  return METHODS.has(method);
}

/**
 * A well-known document of the base path, asked for where RFC 8414 and RFC 9728 put it (the well-known
 * name inserted between the host and the path: `/.well-known/<name><basePath>`), is answered as the one
 * under the base path (`<basePath>/.well-known/<name>`). The integration routes that root path to the handler.
 */
function wellKnownUnderBase(pathname: string, base: string): string {
  const match = /^\/\.well-known\/([a-z0-9-]+)(\/.*)$/.exec(pathname);
  return match && base !== "" && match[2] === base ? `${base}/.well-known/${match[1]}` : pathname;
}

/** At most this many segments below the first one (a subtree route's: `scim/v2/Users/<id>`). */
const MAX_DEEPER_SEGMENTS = 8;

/**
 * The segments of `<basePath>/<action>[/<second>[/…]]` (decoded): `rest` holds those after the second (only
 * a subtree route, `scim/*`, takes them). Throws `RouteNotFound` for a path outside the base path or a
 * segment that does not decode; `undefined` for no action or too many segments.
 */
export function routeSegments(
  pathname: string,
  basePath: string,
): { action: string; second?: string; raw?: string; rest?: string[] } | undefined {
  const base = basePath.replace(/\/+$/, "");
  pathname = wellKnownUnderBase(pathname, base);
  if (!(pathname === base || pathname.startsWith(`${base}/`))) throw new RouteNotFound(`Not under the base path: ${pathname}`);
  const [action, second, ...rest] = pathname.slice(base.length).split("/").filter(Boolean);
  if (!action || rest.length > MAX_DEEPER_SEGMENTS) return undefined;
  if (second === undefined) return { action };
  try {
    const decoded = { action, second: decodeURIComponent(second), raw: second };
    return rest.length === 0 ? decoded : { ...decoded, rest: rest.map((segment) => decodeURIComponent(segment)) };
  } catch {
    throw new RouteNotFound(`Cannot parse provider id at ${pathname}`);
  }
}

/** Splits `<basePath>/<action>[/<second>]` and matches it; throws `RouteNotFound` for anything else. */
export function parseActionAndProvider(
  pathname: string,
  basePath: string,
  paths: RoutePaths,
  method = "GET",
): RouteMatch & { path: string } {
  const segments = routeSegments(pathname, basePath);
  const match = segments ? paths.match(method, segments.action, segments.second, segments.rest !== undefined) : undefined;
  if (!segments || !match) throw new RouteNotFound(`Cannot parse action at ${pathname}`);
  const { action, raw, second, rest } = segments;
  const path = raw === undefined ? `/${action}` : `/${action}/${raw}`;
  // A subtree route gets the decoded segments below its first one (`["v2", "Users", "<id>"]`).
  if (match.route?.endsWith("/*") && second !== undefined)
    return Object.assign(match, {
      path: rest ? `${path}/${rest.map(encodeURIComponent).join("/")}` : path,
      subPath: [second, ...(rest ?? [])],
    });
  return Object.assign(match, { path });
}

/**
 * Parses the request, which came on a connection from `connectionAddress` (when the integration knows
 * it). Throws `RouteNotFound` for a path, `MethodNotAllowed` for a method authlib does not answer.
 */
export async function parseRequest(
  request: Request,
  basePath: string,
  paths: RoutePaths,
  connectionAddress?: string,
): Promise<RequestInternal> {
  const method = request.method.toUpperCase();
  let text: string | undefined;
  const internal = await parsed(
    request,
    method,
    { basePath, paths },
    async () => {
      const read = await readBody(request);
      text = read.text;
      return read.fields;
    },
    connectionAddress,
  );
  if (method !== "GET" && request.bodyUsed) replayBodyOnDemand(internal, request, text);
  return internal;
}

/**
 * The body was read from the request itself (a `clone()` tees the stream, which cost more than the rest
 * of a sign-in POST). `authorize()` and `sendVerificationRequest()` still get a readable request: a copy
 * with the same URL, method, headers and body text, made only when one of them asks for it.
 */
function replayBodyOnDemand(internal: RequestInternal, original: Request, text: string | undefined): void {
  let copy: Request | undefined;
  Object.defineProperty(internal, "request", {
    enumerable: true,
    get: () => {
      copy ??= new Request(original.url, { method: original.method, headers: original.headers, body: text ?? null });
      return copy;
    },
  });
}

/**
 * A request given as its parts, by an integration that has no `Request` (see `integration.ts`).
 * `body` is the already-parsed form or JSON body of a POST.
 */
export interface AuthRequestParts {
  /** The full URL, e.g. `https://app.example/auth/signin/github`. */
  url: string | URL;
  /** `GET` (the default) or `POST`. */
  method?: string;
  /** The request headers (`Cookie`, `Origin`, `Sec-Fetch-Site`, `Host` and `X-Forwarded-*` are read). */
  headers?: HeadersInit;
  /** The form fields or JSON object of a POST. */
  body?: Record<string, unknown>;
  /**
   * The address of the connection the request came on (e.g. Qwik's `clientConn.ip`): the per-client rate
   * limits start from it (see `rateLimit.clientAddress`). Without it, per-client limits are skipped.
   */
  clientAddress?: string;
}

/**
 * Parses a request given as its parts. The `Request` the actions hand on (to `authorize`, to
 * `sendVerificationRequest`) carries the URL, method and headers; its body is empty: `body` is the body.
 */
export async function parseRequestParts(parts: AuthRequestParts, basePath: string, paths: RoutePaths): Promise<RequestInternal> {
  const method = (parts.method ?? "GET").toUpperCase();
  // Checked before a Request is made from it: the constructor throws on some methods (CONNECT, TRACE).
  if (!isAnsweredMethod(method)) throw new MethodNotAllowed(`Method not allowed: ${method}`);
  let request: Request;
  try {
    request = new Request(parts.url, { method, headers: parts.headers });
  } catch (error) {
    throw new UnknownAction("The request URL or headers are not valid.", { cause: error as Error });
  }
  const body = method !== "GET" && parts.body && typeof parts.body === "object" ? { ...parts.body } : {};
  return parsed(request, method, { basePath, paths }, async () => body, parts.clientAddress);
}

async function parsed(
  request: Request,
  method: string,
  where: { basePath: string; paths: RoutePaths },
  readPostBody: () => Promise<Record<string, unknown>>,
  connectionAddress: string | undefined,
): Promise<RequestInternal> {
  const url = new URL(request.url);
  if (!isAnsweredMethod(method)) throw new MethodNotAllowed(`Method not allowed: ${method}`);
  const { action, route, providerId, path, subPath } = parseActionAndProvider(url.pathname, where.basePath, where.paths, method);
  // A method beyond GET and POST reaches only a route that declares it (the router found none otherwise).
  if (method !== "GET" && method !== "POST" && route === undefined) throw new MethodNotAllowed(`Method not allowed: ${method}`);
  return {
    request,
    url,
    method,
    action,
    route,
    path,
    providerId,
    ...(subPath ? { subPath } : {}),
    query: url.search === "" ? {} : Object.fromEntries(url.searchParams),
    body: method === "GET" ? {} : await readPostBody(),
    cookies: requestCookies(request.headers),
    headers: request.headers,
    connectionAddress,
  };
}

/** The cookies of a request's `Cookie` header (malformed: none). */
export function requestCookies(headers: Headers): Record<string, string | undefined> {
  try {
    return parseCookies(headers.get("cookie") ?? "");
  } catch /* Stryker disable next-line BlockStatement: equivalent (see mutation notes: request-cookies-catch) */ {
    return {};
  }
}

/**
 * Reads a urlencoded or JSON body (its fields, and its text for {@link replayBodyOnDemand}). Anything
 * else (or malformed, or too large) is an empty body: the action then fails its own checks.
 */
async function readBody(request: Request): Promise<{ fields: Record<string, unknown>; text?: string }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES || !request.body) return { fields: {} };
  const text = await readLimited(request.body, MAX_BODY_BYTES);
  return { fields: text === undefined ? {} : bodyFields(request.headers.get("content-type") ?? "", text), text };
}

function bodyFields(type: string, text: string): Record<string, unknown> {
  // SCIM clients send `application/scim+json` (RFC 7644 §3.1).
  if (type.includes("application/json") || type.includes("application/scim+json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  return {};
}

/** The body as text, or `undefined` when it is larger than `limit` bytes or cannot be read. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (!body) return "";
  try {
    const result = await readAtMost(body, limit);
    return "bytes" in result ? new TextDecoder().decode(result.bytes) : undefined;
  } catch /* Stryker disable next-line BlockStatement: equivalent (see mutation notes: read-limited-catch) */ {
    return undefined;
  }
}

/** A string field of the body, or `undefined` when absent or not a string. */
export function bodyString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === "string" ? value : undefined;
}
