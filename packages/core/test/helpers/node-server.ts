/**
 * Test fixture: a tiny node:http server on 127.0.0.1 (free port) that hands requests to a Web-standard
 * handler, typically `(request) => Auth(request, config)` for paths under `/auth`.
 *
 * ```ts
 * const server = await startNodeServer((request, { remoteAddress }) => Auth(request, config, { clientAddress: remoteAddress }));
 * // server.origin === "http://localhost:<port>" (the server listens on 127.0.0.1)
 * await server.close();
 * ```
 *
 * - Only paths under `basePath` (default `/auth`) reach the handler; everything else goes to `fallback`
 *   (default: a plain 404), e.g. a tiny home page to land on after sign-in.
 * - `host` is what URLs use: `localhost` gives a secure context in browsers (WebAuthn needs one) while
 *   the socket stays on the loopback address.
 * - A handler that throws becomes a 500 whose body names the error, so a test sees it; `Auth()` itself
 *   never throws.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the server knows about a request's connection. */
export interface ConnectionInfo {
  /** The peer's address (`socket.remoteAddress`), e.g. `127.0.0.1`. */
  remoteAddress?: string;
}

/** A handler of Web-standard requests; `connection` is what `Auth(request, config, { clientAddress })` wants. */
export type WebHandler = (request: Request, connection: ConnectionInfo) => Response | Promise<Response>;

/** Options of {@link startNodeServer}. */
export interface NodeServerOptions {
  /** Host name used in `origin` and in the request URLs handed to the handler. Default `localhost`. */
  host?: string;
  /** Only requests under this path go to the handler. Default `/auth`. */
  basePath?: string;
  /** Handles every other path. Default: 404. */
  fallback?: WebHandler;
  /**
   * Also hands the handler the well-known documents of the base path at the root, where RFC 8414 puts
   * them (`/.well-known/<name><basePath>`), as an app routes them to an authorization server.
   */
  wellKnownToAuth?: boolean;
}

/** A running server. */
export interface NodeServer {
  /** `http://<host>:<port>` */
  origin: string;
  port: number;
  /** Requests handled so far (method and path), for assertions. */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

async function readBody(message: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (message.method === "GET" || message.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** The Web `Request` of a node request, its URL on `origin`. */
export async function toWebRequest(message: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const body = await readBody(message);
  return new Request(new URL(message.url ?? "/", origin), { method: message.method, headers, body: body?.length ? body : undefined });
}

/** Writes a Web `Response` to a node response, one `Set-Cookie` header per cookie. */
export async function sendWebResponse(response: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  out.writeHead(response.status, headers);
  out.end(Buffer.from(await response.arrayBuffer()));
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startNodeServer(handler: WebHandler, options: NodeServerOptions = {}): Promise<NodeServer> {
  const host = options.host ?? "localhost";
  const basePath = options.basePath ?? "/auth";
  const requests: NodeServer["requests"] = [];
  let origin = "";
  const server = createServer((message, out) => {
    const path = message.url ?? "/";
    requests.push({ method: message.method ?? "GET", path });
    void (async () => {
      try {
        const wellKnown =
          options.wellKnownToAuth === true && /^\/\.well-known\/[a-z0-9-]+\//.test(path) && path.split("?")[0]?.endsWith(basePath);
        const underBasePath = wellKnown || path === basePath || path.startsWith(`${basePath}/`) || path.startsWith(`${basePath}?`);
        const target = underBasePath ? handler : options.fallback;
        if (!target) {
          out.writeHead(404, { "content-type": "text/plain" }).end("Not found");
          return;
        }
        const connection = { remoteAddress: message.socket.remoteAddress };
        await sendWebResponse(await target(await toWebRequest(message, origin), connection), out);
      } catch (error) {
        if (!out.headersSent) out.writeHead(500, { "content-type": "text/plain" });
        out.end(`Handler failed: ${(error as Error).name}: ${(error as Error).message}`);
      }
    })();
  });
  // Idle keep-alive sockets outlive a blocked event loop (see the test OP in oidc-provider.ts).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host}:${port}`;
  return {
    origin,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
