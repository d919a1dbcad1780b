/**
 * A scripted HTTP server on 127.0.0.1 that plays an OAuth / OIDC provider in tests: routes keyed
 * `"METHOD /path"` answer with JSON or text, every request is recorded, and an RS256 key signs ID tokens
 * (its public half is served as a JWKS by whoever needs one).
 *
 * ```ts
 * const fake = await startFakeServer();
 * fake.routes["POST /token"] = ({ body }) => ({ body: { access_token: "at", token_type: "bearer" } });
 * const idToken = await fake.signIdToken({ iss: fake.origin, aud: "client", sub: "u1" });
 * await fake.close();
 * ```
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

/** A request as a route sees it. */
export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The raw request body. */
  text: string;
  /** The body parsed as a form (empty for other bodies). */
  body: URLSearchParams;
}

/** A route's answer: JSON for objects and arrays, `text/html` for strings unless `type` says otherwise. */
export interface FakeResponse {
  status?: number;
  type?: string;
  body: string | object;
  headers?: Record<string, string>;
}

/** Answers one `"METHOD /path"`. */
export type FakeRoute = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>;

/** A running fake. */
export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The routes, changeable at any time; a request without a route gets a 404. */
  routes: Record<string, FakeRoute>;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** The key id of the signing key (`kid` of signed tokens and of the JWKS entry). */
  kid: string;
  /** The public signing key as a JWKS document. */
  jwks(): { keys: JWK[] };
  /** Signs claims as an RS256 JWT; `iat` and `exp` (now + 5 minutes) unless the claims set them. */
  signIdToken(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Starts a fake on a free port of 127.0.0.1, with a fresh RS256 key. */
export async function startFakeServer(): Promise<FakeServer> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: "fake-key-1", alg: "RS256", use: "sig" };
  const routes: Record<string, FakeRoute> = {};
  const requests: FakeRequest[] = [];
  let origin = "";

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const text = Buffer.concat(chunks).toString();
      const url = new URL(req.url ?? "/", origin);
      const isForm = req.headers["content-type"]?.includes("application/x-www-form-urlencoded") ?? false;
      const request: FakeRequest = {
        method: req.method ?? "GET",
        url,
        headers: req.headers,
        text,
        body: new URLSearchParams(isForm || !req.headers["content-type"] ? text : ""),
      };
      requests.push(request);
      const route = routes[`${request.method} ${url.pathname}`];
      if (!route) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no route");
        return;
      }
      try {
        const answer = await route(request);
        const body = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, {
          "content-type": answer.type ?? (typeof answer.body === "string" ? "text/html" : "application/json"),
          ...answer.headers,
        });
        res.end(body);
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end(`fake route failed: ${(error as Error).message}`);
      }
    });
  });
  // Idle keep-alive sockets outlive a blocked event loop (see the test OP in helpers/oidc-provider.ts).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    routes,
    requests,
    kid: publicJwk.kid,
    jwks: () => ({ keys: [publicJwk] }),
    signIdToken(claims) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: "RS256", kid: publicJwk.kid, typ: "JWT" })
        .sign(privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
