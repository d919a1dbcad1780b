/**
 * The acceptance of the authorization server for MCP: the official MCP TypeScript SDK's client, which no one
 * here wrote, connects to an MCP server (the SDK's `McpServer` over Streamable HTTP) guarded by
 * `@authlib/core/resource`. It is refused (401 naming the resource's metadata), discovers the resource and
 * the authorization server, registers itself (RFC 7591), sends the user to the authorize URL with PKCE,
 * where the user signs in and allows it in real Chromium; then it calls a tool as that user, refreshes its
 * token when the token expires, and is refused once the user revokes it on the account page. And the same
 * with a client id that is an https URL (a Client ID Metadata Document, served over loopback TLS).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser as Chromium, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import {
  type ProtectResourceOptions,
  protectedResourceMetadataResponse,
  protectResource,
  resourceErrorResponse,
  revocationWithin,
} from "../../src/resource/index.js";
import { launchChromium, openWatchedTab } from "../helpers/chromium.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";
import { type Browser, PASSWORD, startServerApp } from "./app.js";

/** What the MCP server's challenge asks for: its scope, and `offline_access` for a refresh token. */
const CHALLENGE_SCOPES = ["read:projects", "offline_access"];

let app: Awaited<ReturnType<typeof startServerApp>>;
let ada: Browser & { userId: string };
let chromium: Chromium;
/** The loopback redirect URI's server: the "app" the browser comes back to, which keeps each URL it got. */
let callback: NodeServer & { hits: URL[] };
/** The MCP endpoint: the resource's identifier. Known once the app listens; the app's resources list is filled then. */
let mcpUrl = "";
const resources: string[] = [];
/** What the tool saw of each call: the user its token acts for. */
const toolCalls: string[] = [];
/** The loopback HTTPS server of the client-id URL's metadata document, and the paths it was asked for. */
let documentServer: HttpsServer;
let documentOrigin = "";
const documentHits: string[] = [];
let tlsDir = "";

/** A self-signed certificate for 127.0.0.1, made now with `openssl` (the authorization server trusts it as `ca`). */
function selfSignedCertificate(): { key: string; cert: string } {
  tlsDir = mkdtempSync(join(tmpdir(), "authlib-mcp-tls-"));
  const [key, cert] = [join(tlsDir, "key.pem"), join(tlsDir, "cert.pem")];
  const args =
    "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1";
  execFileSync("openssl", [...args.split(" "), "-keyout", key, "-out", cert], { stdio: "ignore" });
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

/**
 * The MCP server, as an app writes it: the protected resource metadata (RFC 9728), then every request to
 * `/mcp` needs an access token for this resource, checked without a database except for the grant's
 * revocation, which `auth.api.isGrantRevoked` answers from the store (bound 0: at once).
 */
function mcpRoutes(): (request: Request) => Promise<Response> {
  const auth = createAuth(app.config);
  const guard: ProtectResourceOptions = {
    issuer: app.issuer,
    resource: mcpUrl,
    scopes: ["read:projects"],
    revocation: revocationWithin({ isRevoked: (grantId) => auth.api.isGrantRevoked(grantId) }, 0),
  };
  return async (request) => {
    const metadata = protectedResourceMetadataResponse(request, {
      resource: mcpUrl,
      authorizationServers: [app.issuer],
      scopes: CHALLENGE_SCOPES,
      resourceName: "Projects",
    });
    if (metadata) return metadata;
    if (new URL(request.url).pathname !== "/mcp") return new Response("Not found", { status: 404 });
    let caller: Awaited<ReturnType<typeof protectResource>>;
    try {
      caller = await protectResource(request, guard);
    } catch (error) {
      return resourceErrorResponse(error, { resource: mcpUrl, scopes: CHALLENGE_SCOPES });
    }
    // Stateless: no server-to-client stream (GET) and no session to end (DELETE).
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const server = new McpServer({ name: "projects", version: "1.0.0" });
    server.registerTool("list_projects", { description: "Lists the projects of the signed-in user" }, (extra) => {
      const userId = String(extra.authInfo?.extra?.userId);
      toolCalls.push(userId);
      return { content: [{ type: "text", text: JSON.stringify({ userId, projects: ["apollo", "gemini"] }) }] };
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const token = request.headers.get("authorization")?.slice("Bearer ".length) ?? "";
    return transport.handleRequest(request, {
      authInfo: {
        token,
        clientId: caller.clientId,
        scopes: caller.scopes,
        expiresAt: caller.expiresAt.getTime() / 1000,
        extra: { userId: caller.userId },
      },
    });
  };
}

beforeAll(async () => {
  let routes: ((request: Request) => Promise<Response>) | undefined;
  const tls = selfSignedCertificate();
  app = await startServerApp({
    config: {
      authorizationServer: {
        scopes: { "read:projects": { description: "Read your projects" } },
        registration: true,
        // Client-id URLs: the document server is on loopback with a certificate no public CA signed.
        clientMetadataDocuments: { allowPrivateAddresses: true, ca: tls.cert },
        resources,
        accessTokenMaxAge: 30,
      },
    },
    fallback: (request) => (routes ? routes(request) : new Response("Starting", { status: 503 })),
  });
  // The settings keep this array: the MCP endpoint is a resource tokens may be for, before any request.
  mcpUrl = `${app.origin}/mcp`;
  resources.push(mcpUrl);
  routes = mcpRoutes();
  const hits: URL[] = [];
  const land = (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/callback") return new Response("Not found", { status: 404 }); // the browser's favicon
    hits.push(url);
    return new Response("<!doctype html><title>Connected</title><p>You can close this page.</p>", {
      headers: { "content-type": "text/html" },
    });
  };
  callback = Object.assign(await startNodeServer(land, { host: "127.0.0.1", fallback: land }), { hits });
  documentServer = createHttpsServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    documentHits.push(request.url ?? "");
    if (request.url !== "/clients/projects.json") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(clientDocument()));
  });
  await new Promise<void>((resolve) => documentServer.listen(0, "127.0.0.1", resolve));
  documentOrigin = `https://127.0.0.1:${(documentServer.address() as AddressInfo).port}`;
  [ada, chromium] = await Promise.all([app.signedUp("ada@example.com"), launchChromium()]);
}, 30_000);

afterAll(async () => {
  await chromium?.close();
  await callback?.close();
  documentServer?.closeAllConnections();
  await new Promise((resolve) => (documentServer ? documentServer.close(resolve) : resolve(undefined)));
  await app?.close();
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
});

/** The client-id URL's document: the client's metadata, its `client_id` the URL itself. */
function clientDocument() {
  return {
    client_id: `${documentOrigin}/clients/projects.json`,
    client_name: "Projects MCP client (by URL)",
    redirect_uris: [`${callback.origin}/callback`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

afterEach(() => {
  vi.useRealTimers();
});

/** One request the SDK made, as it went out and came back. */
interface Exchange {
  method: string;
  url: URL;
  status: number;
  wwwAuthenticate: string | null;
}

/** An `OAuthClientProvider` held in memory: what a desktop MCP client keeps, and where it sends the user. */
class MemoryProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  /** The authorize URLs the SDK asked the user to open, in order. */
  readonly authorizationUrls: URL[] = [];
  readonly states: string[] = [];
  readonly invalidated: string[] = [];

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    // The SDK's type (inferred from its zod schema) makes `logo_uri` and `tos_uri` required keys.
    return <OAuthClientMetadata>{
      client_name: "Projects MCP client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state(): string {
    const state = crypto.randomUUID();
    this.states.push(state);
    return state;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    this.invalidated.push(scope);
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.information = undefined;
  }
}

/** A transport to the MCP server over a `fetch` that records each exchange. */
function transportFor(provider: MemoryProvider, log: Exchange[]): StreamableHTTPClientTransport {
  const recording = async (url: string | URL, init?: RequestInit) => {
    const response = await fetch(url, init);
    log.push({
      method: init?.method ?? "GET",
      url: new URL(url),
      status: response.status,
      wwwAuthenticate: response.headers.get("www-authenticate"),
    });
    return response;
  };
  return new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: recording });
}

/** The SDK's discovery: the resource's metadata (RFC 9728), then the authorization server's (RFC 8414 at the issuer's path). */
const DISCOVERY = [`GET /.well-known/oauth-protected-resource/mcp 200`, `GET /.well-known/oauth-authorization-server/auth 200`];

const pathsOf = (log: Exchange[]) => log.map((e) => `${e.method} ${e.url.origin === app.origin ? e.url.pathname : e.url.href} ${e.status}`);

/** What `list_projects` answered. */
async function listProjects(client: Client): Promise<{ userId: string; projects: string[] }> {
  const result = await client.callTool({ name: "list_projects", arguments: {} });
  const [content] = result.content as Array<{ type: string; text: string }>;
  return JSON.parse(content?.text ?? "null");
}

/**
 * The user opens `url` in Chromium: not signed in there, they land on the sign-in page, sign in with their
 * password, come back to the consent page, check who asks for what, and click Allow; the browser is sent
 * to the client's loopback redirect URI.
 */
async function signInAndAllow(page: Page, url: URL, clientName: string): Promise<URL> {
  await page.goto(url.href);
  await page.waitForURL((at) => at.pathname === "/auth/signin");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Sign in with Password" }) });
  await form.getByLabel("Email").fill("ada@example.com");
  await form.getByLabel("Password").fill(PASSWORD);
  await Promise.all([
    page.waitForURL((at) => at.pathname === "/auth/oauth2/authorize"),
    form.getByRole("button", { name: "Sign in with Password" }).click(),
  ]);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Allow access to your account?");
  const consent = (await page.locator("main").textContent()) ?? "";
  expect(consent).toContain(clientName);
  expect(consent).toContain("Read your projects");
  expect(consent).toContain("ada@example.com");
  const landed = callback.hits.length;
  await Promise.all([page.waitForURL((at) => at.origin === callback.origin), page.getByRole("button", { name: "Allow" }).click()]);
  expect(callback.hits.length).toBe(landed + 1);
  return callback.hits[landed] as URL;
}

describe("the MCP TypeScript SDK against the authorization server", () => {
  it("401 → discovery → registration → consent in Chromium → tool call as the user → refresh on expiry → revoked on the account page → 401", async () => {
    const provider = new MemoryProvider(`${callback.origin}/callback`);
    const log: Exchange[] = [];

    // 1. The first call is refused, with the challenge that names the resource's metadata.
    const first = new Client({ name: "projects-client", version: "1.0.0" });
    await expect(first.connect(transportFor(provider, log))).rejects.toBeInstanceOf(UnauthorizedError);
    const [refused] = log;
    expect(refused).toMatchObject({ method: "POST", status: 401 });
    expect(refused?.url.href).toBe(mcpUrl);
    expect(refused?.wwwAuthenticate).toBe(
      `Bearer resource_metadata="${app.origin}/.well-known/oauth-protected-resource/mcp", scope="read:projects offline_access"`,
    );

    // 2. The SDK read the resource's metadata, then the authorization server's (RFC 8414 at the issuer's
    //    path), and registered (RFC 7591): a public client on its loopback redirect URI.
    expect(pathsOf(log)).toEqual([`POST /mcp 401`, ...DISCOVERY, `POST /auth/oauth2/register 201`]);
    const clientId = provider.information?.client_id as string;
    expect(clientId).toBeTruthy();
    expect(provider.information).toMatchObject({ redirect_uris: [provider.redirectUrl], token_endpoint_auth_method: "none" });
    expect((provider.information as { client_secret?: string }).client_secret).toBeUndefined();
    expect(await app.store.getOAuthClient?.(clientId)).toMatchObject({ name: "Projects MCP client", source: "registered" });

    // 3. The authorize URL it built: code + PKCE (S256) for this resource (RFC 8707), with its state.
    expect(provider.authorizationUrls).toHaveLength(1);
    const authorizeUrl = provider.authorizationUrls[0] as URL;
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${app.issuer}/oauth2/authorize`);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: "code",
      client_id: clientId,
      redirect_uri: provider.redirectUrl,
      code_challenge_method: "S256",
      scope: "read:projects offline_access",
      resource: mcpUrl,
      state: provider.states[0],
    });
    expect(authorizeUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // 4. The user signs in and allows it in Chromium; the browser comes back to the client's redirect URI.
    const { context, page, problems } = await openWatchedTab(chromium);
    try {
      const landed = await signInAndAllow(page, authorizeUrl, "Projects MCP client");
      expect(landed.pathname).toBe("/callback");
      expect(landed.searchParams.get("state")).toBe(provider.states[0]);
      expect(landed.searchParams.get("iss")).toBe(app.issuer);
      const code = landed.searchParams.get("code") as string;
      expect(code).toBeTruthy();

      // 5. The client exchanges the code (with its verifier) and connects; the tool runs as Ada.
      const transport = transportFor(provider, log);
      await transport.finishAuth(code);
      expect(log.at(-1)).toMatchObject({ method: "POST", status: 200 });
      expect(log.at(-1)?.url.pathname).toBe("/auth/oauth2/token");
      const issued = provider.saved as OAuthTokens;
      expect(issued).toMatchObject({
        token_type: expect.stringMatching(/^bearer$/i),
        scope: "read:projects offline_access",
        expires_in: 30,
      });
      expect(issued.refresh_token).toBeTruthy();
      const client = new Client({ name: "projects-client", version: "1.0.0" });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["list_projects"]);
      expect(await listProjects(client)).toEqual({ userId: ada.userId, projects: ["apollo", "gemini"] });
      expect(toolCalls.at(-1)).toBe(ada.userId);

      // 6. The access token expires (30 s; the clock moves 40 s): the server refuses it, and the SDK
      //    refreshes on its own (a rotated refresh token) and calls again.
      vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
      vi.setSystemTime(Date.now() + 40_000);
      const before = log.length;
      expect(await listProjects(client)).toEqual({ userId: ada.userId, projects: ["apollo", "gemini"] });
      const refresh = log.slice(before);
      // (This provider keeps no discovery state, so the SDK reads both metadata documents again.)
      expect(pathsOf(refresh)).toEqual([`POST /mcp 401`, ...DISCOVERY, `POST /auth/oauth2/token 200`, `POST /mcp 200`]);
      expect(refresh[0]?.wwwAuthenticate).toContain(`error="invalid_token"`);
      const refreshed = provider.saved as OAuthTokens;
      expect(refreshed.access_token).not.toBe(issued.access_token);
      expect(refreshed.refresh_token).toBeTruthy();
      expect(refreshed.refresh_token).not.toBe(issued.refresh_token);

      // 7. Ada revokes the client on her account page, in Chromium.
      await page.goto(`${app.origin}/auth/account`);
      const section = page.getByRole("region", { name: "Connected applications" });
      await expect(section.textContent()).resolves.toContain("Projects MCP client");
      await Promise.all([
        page.waitForURL((at) => at.pathname === "/auth/account" && at.searchParams.get("done") === "grantRevoked"),
        section.getByRole("button", { name: "Revoke access: Projects MCP client" }).click(),
      ]);
      await expect(page.getByText("The application no longer has access to your account.").count()).resolves.toBe(1);
      await expect(section.textContent()).resolves.toContain("No application has access to your account.");

      // 8. The next tool call is refused (401: the grant is revoked), the refresh token is dead too, and
      //    the SDK can only send the user to the consent page again.
      const revokedAt = log.length;
      const calls = toolCalls.length;
      await expect(listProjects(client)).rejects.toBeInstanceOf(UnauthorizedError);
      const after = log.slice(revokedAt);
      expect(pathsOf(after)).toEqual([`POST /mcp 401`, ...DISCOVERY, `POST /auth/oauth2/token 400`, ...DISCOVERY]);
      expect(after[0]?.wwwAuthenticate).toContain(`error="invalid_token"`);
      expect(toolCalls.length).toBe(calls);
      expect(provider.invalidated).toEqual(["tokens"]);
      expect(provider.authorizationUrls).toHaveLength(2);
      expect(problems).toEqual([]);
      await client.close();
    } finally {
      await context.close();
    }
  }, 30_000);

  it("a client id that is an https URL (Client ID Metadata Document): no registration, the server fetches the document", async () => {
    const clientIdUrl = `${documentOrigin}/clients/projects.json`;
    const provider = new MemoryProvider(`${callback.origin}/callback`, clientIdUrl);
    const log: Exchange[] = [];
    const metadata = await (await fetch(`${app.origin}/.well-known/oauth-authorization-server/auth`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);

    // The SDK sees that the server takes URL client ids: it uses its own URL, and registers nothing.
    const first = new Client({ name: "projects-client", version: "1.0.0" });
    await expect(first.connect(transportFor(provider, log))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(pathsOf(log)).toEqual([`POST /mcp 401`, ...DISCOVERY]);
    expect(provider.information?.client_id).toBe(clientIdUrl);
    const authorizeUrl = provider.authorizationUrls[0] as URL;
    expect(authorizeUrl.searchParams.get("client_id")).toBe(clientIdUrl);
    expect(documentHits).toEqual([]);

    // The authorize request makes the server fetch the document (over TLS, from loopback, as allowed);
    // the consent page names the client as its document does.
    const { context, page, problems } = await openWatchedTab(chromium);
    try {
      const landed = await signInAndAllow(page, authorizeUrl, "Projects MCP client (by URL)");
      expect(documentHits).toEqual(["/clients/projects.json"]);
      expect(await app.store.getOAuthClient?.(clientIdUrl)).toMatchObject({
        name: "Projects MCP client (by URL)",
        source: "metadata-document",
      });
      expect(landed.searchParams.get("state")).toBe(provider.states[0]);

      const transport = transportFor(provider, log);
      await transport.finishAuth(landed.searchParams.get("code") as string);
      expect(provider.saved?.refresh_token).toBeTruthy();
      const client = new Client({ name: "projects-client", version: "1.0.0" });
      await client.connect(transport);
      expect(await listProjects(client)).toEqual({ userId: ada.userId, projects: ["apollo", "gemini"] });
      expect(log.some((e) => e.url.pathname === "/auth/oauth2/register")).toBe(false);
      // The document was fetched once and kept (cacheFor): the token exchange did not fetch it again.
      expect(documentHits).toEqual(["/clients/projects.json"]);
      expect(problems).toEqual([]);
      await client.close();
    } finally {
      await context.close();
    }
  });
});
