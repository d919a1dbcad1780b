/**
 * `Auth()` behind Node's `node:http` (and everything built on it: Express, Connect, Fastify's raw
 * handlers): {@link toNodeHandler} turns a configuration into a `(req, res) => void` request listener.
 *
 * ```ts
 * import { createServer } from "node:http";
 * import { toNodeHandler } from "@authlib/core/node";
 *
 * const handleAuth = toNodeHandler(config);
 * createServer((req, res) => {
 *   if (req.url?.startsWith("/auth/")) return handleAuth(req, res);
 *   // … the rest of the app
 * }).listen(3000);
 * ```
 *
 * The helper decides nothing about the app's origin: the request URL is built from the connection (`http`,
 * or `https` on a TLS socket) and the `Host` header, every header is passed on, and `Auth()`'s own origin
 * rules (`url` / `AUTHLIB_URL`, `trustedHosts`, `trustHost`) decide what to believe. It never reads
 * `X-Forwarded-*` itself. Only types are imported from `node:http`, so this module loads anywhere.
 *
 * @module node
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setEnvDefaults } from "./env/defaults.js";
import { type EnvSource, processEnv } from "./env/read.js";
import { instanceFor } from "./kernel/auth.js";
import type { AuthInstance } from "./kernel/instance.js";
import type { AuthConfig } from "./types/config.js";

/** Default of {@link NodeHandlerOptions.maxBodyBytes}: 64 KiB, the most `Auth()` reads of a body anyway. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * The largest request body read, in bytes (default {@link DEFAULT_MAX_BODY_BYTES}). A request declaring
   * or sending more is answered `413` without reaching `Auth()`, and its connection is closed.
   */
  maxBodyBytes?: number;
  /**
   * Where `setEnvDefaults` fills unset options from (`AUTH_SECRET`, `AUTHLIB_URL`, `AUTH_<ID>_ID`, …), once,
   * when the handler is made. Default: `process.env`. `false` leaves the configuration as it is.
   */
  env?: EnvSource | false;
}

/** A `node:http` request listener. It never throws and never rejects: failures become an answer. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The body of a request is larger than the bound: the request is answered 413. */
class BodyTooLarge extends Error {}

/**
 * Turns an instance (`createAuth(config)`), or a configuration (answered like `Auth()`), into a
 * `node:http` request listener for the routes under its `basePath`.
 *
 * - The `Request` gets the method, the path and query, every header, and the body, read chunk by chunk
 *   and refused (413) past `maxBodyBytes`.
 * - The connection's address (`req.socket.remoteAddress`) is passed as `Auth()`'s `clientAddress`, for the
 *   per-client rate limits; no header is read for it.
 * - The status, every header and every `Set-Cookie` (one header line each) are copied onto `res`.
 *
 * A configuration is filled from `options.env` (default `process.env`) once, here, and its instance made
 * once (a configuration error is then answered per request, like `Auth()`); an instance is used as it is
 * (`options.env` does not apply: fill the configuration before `createAuth`).
 */
export function toNodeHandler(auth: AuthInstance | AuthConfig, options: NodeHandlerOptions = {}): NodeHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) throw new TypeError("maxBodyBytes must be a whole number of bytes.");
  let instance: AuthInstance;
  if (isInstance(auth)) instance = auth;
  else {
    const env = options.env ?? processEnv();
    if (env !== false) setEnvDefaults(env, auth);
    instance = instanceFor(auth);
  }
  return (req, res) => {
    void answer(req, res, instance, maxBodyBytes).catch(() => fail(res));
  };
}

function isInstance(value: AuthInstance | AuthConfig): value is AuthInstance {
  return typeof (value as Partial<AuthInstance>).handler === "function" && typeof (value as Partial<AuthInstance>).api === "object";
}

async function answer(req: IncomingMessage, res: ServerResponse, auth: AuthInstance, maxBodyBytes: number): Promise<void> {
  const url = requestUrl(req);
  if (url === undefined) return sendPlain(res, 400, "Bad request: the Host header or the request target is malformed.");
  let body: Uint8Array<ArrayBuffer> | undefined;
  try {
    body = await readBody(req, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) return sendPlain(res, 413, `The request body is larger than ${maxBodyBytes} bytes.`, true);
    throw error;
  }
  const request = new Request(url, { method: req.method, headers: requestHeaders(req), body });
  const response = await auth.handler(request, { clientAddress: req.socket.remoteAddress });
  await sendResponse(res, response);
}

/**
 * The request's absolute URL: scheme from the socket, host from `Host` (as any server would), path and
 * query from the request target. `undefined` when they do not make a URL with that host.
 */
function requestUrl(req: IncomingMessage): URL | undefined {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const host = req.headers.host;
  const target = req.url ?? "/";
  if (!host || !target.startsWith("/")) return undefined;
  try {
    const base = new URL(`${scheme}://${host}`);
    // A Host with a path, user info or anything else than host[:port] does not round-trip.
    if (base.host !== host.toLowerCase()) return undefined;
    return new URL(target, base);
  } catch {
    return undefined;
  }
}

/** Every request header, repeated ones appended one by one. */
function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    // HTTP/2 pseudo-headers (`:path`) are not header names a Request accepts.
    if (!name.startsWith(":")) headers.append(name, req.rawHeaders[i + 1] as string);
  }
  return headers;
}

/**
 * The body, at most `limit` bytes (rejects with {@link BodyTooLarge} past it); `undefined` for GET/HEAD or
 * none. Past the limit the request is paused, not destroyed, so the 413 can still be written on its socket.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve(undefined);
  if (Number(req.headers["content-length"] ?? 0) > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onFailure);
      req.off("close", onFailure);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        stop();
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      stop();
      resolve(size === 0 ? undefined : concat(chunks, size));
    };
    // An error, or the connection closing before the body ended (the client went away).
    const onFailure = () => {
      stop();
      reject(new Error("The request body could not be read."));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onFailure);
    req.on("close", onFailure);
  });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Copies a Web `Response` onto `res`: status, headers, each `Set-Cookie` as its own header line, body. */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  const body = new Uint8Array(await response.arrayBuffer());
  res.end(body.byteLength > 0 ? body : undefined);
}

/**
 * A short plain-text refusal. With `close`, the connection is closed after it: the client may still be
 * sending a body nobody will read.
 */
function sendPlain(res: ServerResponse, status: number, message: string, close = false): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...(close ? { connection: "close" } : {}) });
  res.end(message);
}

/** Last resort (the client went away mid-body, a write failed): answer 400 if nothing was sent, else drop. */
function fail(res: ServerResponse): void {
  if (!res.headersSent && !res.destroyed) {
    sendPlain(res, 400, "Bad request: the request could not be read.", true);
    return;
  }
  res.destroy();
}
