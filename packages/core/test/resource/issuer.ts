/**
 * A stand-in issuer for the resource tests: an ES256 key pair, its JWKS served by a real `node:http`
 * server on 127.0.0.1 (port 0), and access tokens minted with jose the way authlib issues them (RFC 9068).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";

export const RESOURCE = "https://api.example.com/mcp";
export const OTHER_RESOURCE = "https://other.example.com/api";

export interface TestIssuer {
  /** The issuer URL (`http://127.0.0.1:<port>/auth`), whose `/oauth2/jwks` serves the public key. */
  issuer: string;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** How many times the JWKS was fetched. */
  jwksFetches: () => number;
  /** Extra routes (introspection): path → handler. */
  routes: Map<string, (request: IncomingMessage, response: ServerResponse, body: string) => void>;
  close: () => Promise<void>;
}

/** Starts the issuer's server; close it after. */
export async function startIssuer(): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = "key-1";
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  let fetches = 0;
  const routes: TestIssuer["routes"] = new Map();
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://x").pathname;
      if (path === "/auth/oauth2/jwks") {
        fetches += 1;
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [publicJwk] }));
        return;
      }
      const route = routes.get(path);
      if (route) route(request, response, body);
      else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    issuer: `http://127.0.0.1:${port}/auth`,
    kid,
    privateKey,
    publicJwk,
    jwksFetches: () => fetches,
    routes,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The claims authlib puts in an access token, `overrides` merged in (a value `undefined` removes a claim). */
export function accessClaims(issuer: string, overrides: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: issuer,
    sub: "user-1",
    aud: RESOURCE,
    client_id: "client-1",
    scope: "mcp projects:read",
    iat: now,
    exp: now + 600,
    jti: "token-1",
    grant_id: "grant-1",
    auth_time: now - 60,
    acr: "1",
    ...overrides,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return claims as JWTPayload;
}

/** Signs `claims` with `key` (ES256), under the protected header `{ alg, kid, typ }` with `header` merged in. */
export function sign(claims: JWTPayload, key: CryptoKey | Uint8Array, header: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", ...header } as { alg: string }).sign(key);
}

/** An access token of `issuer`, as authlib issues it, with `overrides` of its claims. */
export function mint(issuer: TestIssuer, overrides: Record<string, unknown> = {}): Promise<string> {
  return sign(accessClaims(issuer.issuer, overrides), issuer.privateKey, { kid: issuer.kid, typ: "at+jwt" });
}

/** A request to the resource with `authorization` as its header (none when `undefined`). */
export function requestWith(authorization?: string, url = `${RESOURCE}/tools`): Request {
  return new Request(url, { headers: authorization === undefined ? {} : { authorization } });
}
