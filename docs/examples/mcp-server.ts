/**
 * docs/authorization-server.md ("MCP servers"): an MCP server (the official SDK's `McpServer` over
 * Streamable HTTP) guarded by `@authlib/core/resource`. A request without a valid token gets 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…"`; MCP clients read that metadata, find the issuer, register
 * (or use a client-id URL), send the user to the consent page and come back with a token. Here the MCP server
 * runs beside the authorization server, so a revoked grant is seen in the store at once; a server elsewhere
 * uses `introspectionRevocation` instead.
 */
import { type AuthConfig, createAuth } from "@authlib/core";
import {
  type ProtectResourceOptions,
  protectedResourceMetadataResponse,
  protectResource,
  resourceErrorResponse,
  revocationWithin,
} from "@authlib/core/resource";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

const ISSUER = "https://app.example/auth";
const RESOURCE = "https://app.example/mcp";

/** The app's configuration: `authorizationServer` names this MCP endpoint among its resources. */
declare const config: AuthConfig;
const auth = createAuth(config);

const guard: ProtectResourceOptions = {
  issuer: ISSUER,
  resource: RESOURCE,
  scopes: ["read:projects"],
  // Asks the store about each token's grant at most once per 5 s: a revoked grant stops working within 5 s.
  revocation: revocationWithin({ isRevoked: (grantId) => auth.api.isGrantRevoked(grantId) }, 5),
};
/** What a client should ask for: the tool's scope, and `offline_access` for a refresh token. */
const challenge = { resource: RESOURCE, scopes: ["read:projects", "offline_access"] };

/** The MCP server of one request (stateless: no session between requests), its tool acting for `userId`. */
function projectsServer(userId: string): McpServer {
  const server = new McpServer({ name: "projects", version: "1.0.0" });
  server.registerTool("list_projects", { description: "Lists your projects" }, async () => ({
    content: [{ type: "text", text: JSON.stringify(await listProjectsOf(userId)) }],
  }));
  return server;
}

/** The app's routes of the MCP server: its RFC 9728 metadata, and `/mcp`. */
export async function handleMcp(request: Request): Promise<Response | null> {
  const metadata = protectedResourceMetadataResponse(request, {
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    scopes: challenge.scopes,
    resourceName: "Projects",
  });
  if (metadata) return metadata; // GET /.well-known/oauth-protected-resource/mcp
  if (new URL(request.url).pathname !== "/mcp") return null;
  let caller: Awaited<ReturnType<typeof protectResource>>;
  try {
    caller = await protectResource(request, guard);
  } catch (error) {
    return resourceErrorResponse(error, challenge); // 401/403/400 with the Bearer challenge
  }
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await projectsServer(caller.userId).connect(transport);
  return transport.handleRequest(request);
}

/** The app's own data access. */
declare function listProjectsOf(userId: string): Promise<Array<{ id: string; name: string }>>;
