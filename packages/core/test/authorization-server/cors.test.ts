/**
 * Browser-based clients (an MCP inspector, a single-page app) call the OAuth endpoints with `fetch` from
 * their own origin: a request with `Authorization` or a JSON body is preflighted (`OPTIONS`), and the
 * endpoints answer it (any origin, no credentials). Proven in Chromium from a page of another origin:
 * discovery with `MCP-Protocol-Version`, a JSON registration, then the userinfo call with a Bearer token
 * all succeed; the user's own routes (sessions, grants) answer no preflight.
 */
import type { Browser as Chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { startServerApp } from "./app.js";

let app: Awaited<ReturnType<typeof startServerApp>>;
let other: NodeServer;
let chromium: Chromium;

beforeAll(async () => {
  app = await startServerApp({ config: { authorizationServer: { registration: true } } });
  other = await startNodeServer(() => new Response("<!doctype html><title>client</title>", { headers: { "content-type": "text/html" } }));
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await other?.close();
  await app?.close();
});

const preflight = (path: string, method: string, headers: string) =>
  fetch(`${app.issuer}${path}`, {
    method: "OPTIONS",
    headers: { origin: "https://client.example", "access-control-request-method": method, "access-control-request-headers": headers },
  });

describe("CORS preflight", () => {
  it("the token endpoint allows any origin, its method and the headers a client sends, never credentials", async () => {
    const response = await preflight("/oauth2/token", "POST", "authorization,content-type");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("userinfo answers for both its methods; discovery for the MCP protocol header", async () => {
    expect((await preflight("/oauth2/userinfo", "GET", "authorization")).headers.get("access-control-allow-methods")).toBe("GET, POST");
    const discovery = await preflight("/.well-known/oauth-authorization-server", "GET", "mcp-protocol-version");
    expect(discovery.status).toBe(204);
    expect(discovery.headers.get("access-control-allow-headers")).toBe("MCP-Protocol-Version");
  });

  it("the user's own routes, and paths that are not routes, answer no preflight", async () => {
    for (const path of ["/oauth2/grants", "/oauth2/revoke-grant", "/sessions", "/session", "/nowhere"]) {
      const response = await preflight(path, "POST", "content-type");
      expect([path, response.status]).toEqual([path, 405]);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
  });
});

describe("from a page of another origin, in Chromium", () => {
  it("discovers, registers with JSON and reads userinfo's challenge to a bad Bearer token: every fetch is allowed", async () => {
    const page = await chromium.newPage();
    try {
      await page.goto(other.origin);
      const results = await page.evaluate(async (issuer) => {
        const metadata = await fetch(`${issuer}/.well-known/oauth-authorization-server`, {
          headers: { "MCP-Protocol-Version": "2025-06-18" },
        }).then((r) => r.json());
        const registered = await fetch(metadata.registration_endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            client_name: "Inspector",
            redirect_uris: ["http://127.0.0.1:6274/callback"],
            token_endpoint_auth_method: "none",
          }),
        });
        const userinfo = await fetch(metadata.userinfo_endpoint, { headers: { authorization: "Bearer not-a-token" } });
        return {
          issuer: metadata.issuer,
          registered: registered.status,
          clientId: (await registered.json()).client_id,
          userinfo: userinfo.status,
          challenge: userinfo.headers.get("www-authenticate"),
        };
      }, app.issuer);
      expect(results.issuer).toBe(app.issuer);
      expect(results.registered).toBe(201);
      expect(typeof results.clientId).toBe("string");
      expect(results.userinfo).toBe(401);
      // The challenge is exposed to the page (RFC 6750 §3): the client learns why.
      expect(results.challenge).toBe('Bearer error="invalid_token"');
    } finally {
      await page.close();
    }
  });
});
