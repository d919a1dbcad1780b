/**
 * The protected resource metadata (RFC 9728): the document's shape, its well-known URL, and the route
 * that serves it (both well-known forms, CORS, other paths left to the app).
 */
import { describe, expect, it } from "vitest";
import { protectedResourceMetadata, protectedResourceMetadataResponse, protectedResourceMetadataUrl } from "../../src/resource/index.js";

const options = {
  resource: "https://api.example.com/mcp",
  authorizationServers: ["https://auth.example.com"],
  scopes: ["mcp", "projects:read"],
  resourceName: "Example MCP",
  resourceDocumentation: "https://api.example.com/docs",
};

describe("the metadata document", () => {
  it("has the RFC 9728 members, bearer tokens in the header only", () => {
    expect(protectedResourceMetadata(options)).toEqual({
      resource: "https://api.example.com/mcp",
      authorization_servers: ["https://auth.example.com"],
      scopes_supported: ["mcp", "projects:read"],
      bearer_methods_supported: ["header"],
      resource_name: "Example MCP",
      resource_documentation: "https://api.example.com/docs",
    });
  });

  it("leaves out the optional members not given", () => {
    const document = protectedResourceMetadata({ resource: "https://api.example.com", authorizationServers: ["https://a.example"] });
    expect(Object.keys(document).sort()).toEqual(["authorization_servers", "bearer_methods_supported", "resource"]);
  });

  it("its URL puts the well-known path between the origin and the resource's path", () => {
    expect(protectedResourceMetadataUrl("https://api.example.com/mcp")).toBe(
      "https://api.example.com/.well-known/oauth-protected-resource/mcp",
    );
    expect(protectedResourceMetadataUrl("https://api.example.com/")).toBe("https://api.example.com/.well-known/oauth-protected-resource");
  });
});

describe("the metadata route", () => {
  it("answers both well-known forms with the JSON document, readable from any origin", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = protectedResourceMetadataResponse(new Request(`https://api.example.com${path}`), options);
      expect(response?.status, path).toBe(200);
      expect(response?.headers.get("access-control-allow-origin")).toBe("*");
      expect(response?.headers.get("content-type")).toBe("application/json");
      expect(await response?.json()).toEqual(protectedResourceMetadata(options));
    }
  });

  it("answers the CORS preflight, refuses a POST, and leaves other paths to the app (null)", () => {
    const at = (path: string, method = "GET") =>
      protectedResourceMetadataResponse(new Request(`https://api.example.com${path}`, { method }), options);
    const preflight = at("/.well-known/oauth-protected-resource/mcp", "OPTIONS");
    expect(preflight?.status).toBe(204);
    expect(preflight?.headers.get("access-control-allow-origin")).toBe("*");
    expect(at("/.well-known/oauth-protected-resource", "POST")?.status).toBe(405);
    expect(at("/.well-known/oauth-protected-resource/other")).toBeNull();
    expect(at("/mcp")).toBeNull();
  });
});
