/**
 * The protected resource metadata (RFC 9728): the document that tells a client (an MCP client, say)
 * which authorization servers issue tokens for this resource and which scopes it understands, and the
 * route that serves it at `/.well-known/oauth-protected-resource`.
 *
 * @module resource/metadata
 */
import type { ProtectedResourceMetadata, ProtectedResourceMetadataOptions } from "./types.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** The resource's path, without its trailing slash (`""` for an origin). */
function resourcePath(resource: string): string {
  return new URL(resource).pathname.replace(/\/+$/, "");
}

/**
 * The metadata URL of a resource (RFC 9728 §3.1): the well-known path inserted between its origin and
 * its path (`https://api.example.com/mcp` → `https://api.example.com/.well-known/oauth-protected-resource/mcp`).
 */
export function protectedResourceMetadataUrl(resource: string): string {
  return `${new URL(resource).origin}${WELL_KNOWN}${resourcePath(resource)}`;
}

/** The metadata document of a protected resource (RFC 9728 §2): bearer tokens in the header only. */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): ProtectedResourceMetadata {
  const document: ProtectedResourceMetadata = {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (options.scopes) document.scopes_supported = [...options.scopes];
  if (options.resourceName !== undefined) document.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) document.resource_documentation = options.resourceDocumentation;
  return document;
}

const CORS = { "access-control-allow-origin": "*" } as const;

/**
 * Answers a request for the resource's metadata: `GET` (or `HEAD`) of `/.well-known/oauth-protected-resource`
 * or of it followed by the resource's path, with the JSON document, readable from any origin (a browser
 * client fetches it). `OPTIONS` gets the CORS preflight answer, another method 405. Any other path gets
 * `null`, for the app's next route.
 */
export function protectedResourceMetadataResponse(request: Request, options: ProtectedResourceMetadataOptions): Response | null {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  if (path !== WELL_KNOWN && path !== `${WELL_KNOWN}${resourcePath(options.resource)}`) return null;
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: { ...CORS, "access-control-allow-methods": "GET, HEAD, OPTIONS", "access-control-allow-headers": "*" },
    });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response(null, { status: 405, headers: { ...CORS, allow: "GET, HEAD, OPTIONS" } });
  }
  const body = request.method === "HEAD" ? null : JSON.stringify(protectedResourceMetadata(options));
  return new Response(body, {
    status: 200,
    headers: { ...CORS, "content-type": "application/json", "cache-control": "public, max-age=3600" },
  });
}
