/**
 * Turns a Web `Request` into the parsed request the actions work on. Malformed input is an
 * `RouteNotFound` / `MethodNotAllowed` (bad path or method) or an empty body, never an exception escaping `Auth()`.
 */
import { parse as parseCookies } from "cookie";
import { MethodNotAllowed, RouteNotFound, UnknownAction } from "../errors.js";
import type { AuthAction, RequestInternal } from "../internal-types.js";
import { readAtMost } from "./read-stream.js";

const actions: ReadonlySet<string> = new Set<AuthAction>([
  "providers",
  "csrf",
  "session",
  "signin",
  "callback",
  "signout",
  "error",
  "verify-request",
  "webauthn-options",
  "webauthn-script",
  "sessions",
  "accounts",
  "password",
  "account",
  "two-factor",
  "passkeys",
]);
/** Actions that take a provider id as second path segment. */
const actionsWithProvider: ReadonlySet<string> = new Set<AuthAction>(["signin", "callback", "webauthn-options"]);
/** Actions whose second path segment is one of a few fixed names (`sessions/revoke`), kept in `providerId`. */
const actionsWithSubroute: Readonly<Record<string, ReadonlySet<string>>> = {
  sessions: new Set(["revoke"]),
  accounts: new Set(["unlink"]),
  password: new Set(["sign-up", "verify", "forgot", "reset", "resend", "change", "unlock"]),
  account: new Set([
    "unlink",
    "email",
    "confirm-email",
    "revert-email",
    "delete",
    "deleted",
    "passkey-rename",
    "passkey-remove",
    "two-factor-enroll",
    "two-factor-confirm",
    "two-factor-disable",
  ]),
  passkeys: new Set(["rename", "remove"]),
  "two-factor": new Set(["enroll", "confirm", "disable", "status", "assurance"]),
};
/** Bodies larger than this are not parsed (a sign-in form is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

/** True when `second` is one of `action`'s fixed subroutes (`sessions/revoke`): a name of authlib's, never a client's text. */
export function isSubroute(action: string, second: string): boolean {
  return actionsWithSubroute[action]?.has(second) === true;
}

/** Splits `<basePath>/<action>[/<providerId>]`; throws `RouteNotFound` for anything else. */
export function parseActionAndProvider(pathname: string, basePath: string): { action: AuthAction; providerId?: string } {
  const base = basePath.replace(/\/+$/, "");
  if (!(pathname === base || pathname.startsWith(`${base}/`))) throw new RouteNotFound(`Not under the base path: ${pathname}`);
  const segments = pathname.slice(base.length).split("/").filter(Boolean);
  const [action, providerId, ...rest] = segments;
  const takesSecond = (name: string, second: string) => actionsWithProvider.has(name) || isSubroute(name, second);
  if (!action || !actions.has(action) || rest.length > 0 || (providerId !== undefined && !takesSecond(action, providerId))) {
    throw new RouteNotFound(`Cannot parse action at ${pathname}`);
  }
  let decodedProvider: string | undefined;
  if (providerId !== undefined) {
    try {
      decodedProvider = decodeURIComponent(providerId);
    } catch {
      throw new RouteNotFound(`Cannot parse provider id at ${pathname}`);
    }
  }
  return { action: action as AuthAction, providerId: decodedProvider };
}

/**
 * Parses the request, which came on a connection from `connectionAddress` (when the integration knows
 * it). Throws `RouteNotFound` for a path, `MethodNotAllowed` for a method authlib does not answer.
 */
export async function parseRequest(request: Request, basePath: string, connectionAddress?: string): Promise<RequestInternal> {
  const method = request.method.toUpperCase();
  let text: string | undefined;
  const internal = await parsed(
    request,
    method,
    basePath,
    async () => {
      const read = await readBody(request);
      text = read.text;
      return read.fields;
    },
    connectionAddress,
  );
  // Stryker disable next-line ConditionalExpression: equivalent, only a POST's body is read (`parsed`), and a GET Request cannot have one, so no other method arrives here with a used body
  if (method === "POST" && request.bodyUsed) replayBodyOnDemand(internal, request, text);
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
export async function parseRequestParts(parts: AuthRequestParts, basePath: string): Promise<RequestInternal> {
  const method = (parts.method ?? "GET").toUpperCase();
  // Checked before a Request is made from it: the constructor throws on some methods (CONNECT, TRACE).
  if (method !== "GET" && method !== "POST") throw new MethodNotAllowed(`Method not allowed: ${method}`);
  let request: Request;
  try {
    request = new Request(parts.url, { method, headers: parts.headers });
  } catch (error) {
    throw new UnknownAction("The request URL or headers are not valid.", { cause: error as Error });
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, `parsed` hands on a body only for a POST, and `typeof` refuses an absent body (null spreads to {})
  const body = method === "POST" && parts.body && typeof parts.body === "object" ? { ...parts.body } : {};
  return parsed(request, method, basePath, async () => body, parts.clientAddress);
}

async function parsed(
  request: Request,
  method: string,
  basePath: string,
  readPostBody: () => Promise<Record<string, unknown>>,
  connectionAddress: string | undefined,
): Promise<RequestInternal> {
  const url = new URL(request.url);
  if (method !== "GET" && method !== "POST") throw new MethodNotAllowed(`Method not allowed: ${method}`);
  const { action, providerId } = parseActionAndProvider(url.pathname, basePath);
  return {
    request,
    url,
    method,
    action,
    providerId,
    query: url.search === "" ? {} : Object.fromEntries(url.searchParams),
    // Stryker disable next-line ConditionalExpression: equivalent, a GET Request has no body to read, and parseRequestParts gives {} for anything but a POST
    body: method === "POST" ? await readPostBody() : {},
    cookies: requestCookies(request.headers),
    headers: request.headers,
    connectionAddress,
  };
}

/** The cookies of a request's `Cookie` header (malformed: none). */
export function requestCookies(headers: Headers): Record<string, string | undefined> {
  try {
    return parseCookies(headers.get("cookie") ?? "");
  } catch /* Stryker disable next-line BlockStatement: equivalent, `cookie` 1.x never throws on a string (bad encodings are kept raw); a guard for another version */ {
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
  if (type.includes("application/json")) {
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
  // Stryker disable next-line StringLiteral: equivalent, readBody never passes a null body (it checks first); kept so the helper stands alone
  if (!body) return "";
  try {
    const result = await readAtMost(body, limit);
    return "bytes" in result ? new TextDecoder().decode(result.bytes) : undefined;
  } catch /* Stryker disable next-line BlockStatement: equivalent, an empty catch block also ends the function with undefined */ {
    return undefined;
  }
}

/** A string field of the body, or `undefined` when absent or not a string. */
export function bodyString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === "string" ? value : undefined;
}
