/**
 * The resource side of authlib's authorization server: what an API or MCP server uses to check the
 * access tokens authlib issues (docs/resource-server.md). Web APIs only: it runs on Node, Deno, Bun and
 * workerd, without a database.
 *
 * @example
 * ```ts
 * import { protectResource, resourceErrorResponse } from "@authlib/core/resource";
 *
 * const options = { issuer: "https://auth.example.com", resource: "https://api.example.com/mcp", scopes: ["mcp"] };
 * try {
 *   const caller = await protectResource(request, options);
 * } catch (error) {
 *   return resourceErrorResponse(error, options);
 * }
 * ```
 *
 * @module resource
 */
export {
  bearerChallenge,
  isResourceError,
  type ResourceErrorResponseOptions,
  resourceErrorResponse,
  withProtectedResource,
} from "./challenge.js";
export { InsufficientScope, InvalidRequest, InvalidToken } from "./errors.js";
export { defaultJwksUri } from "./keys.js";
export { protectedResourceMetadata, protectedResourceMetadataResponse, protectedResourceMetadataUrl } from "./metadata.js";
export { type IntrospectionRevocationOptions, introspectionRevocation, revocationWithin } from "./revocation.js";
export type {
  AccessTokenClaims,
  ProtectedResourceMetadata,
  ProtectedResourceMetadataOptions,
  ProtectResourceOptions,
  ResourceCaller,
  RevocationCheck,
} from "./types.js";
export { protectResource } from "./verify.js";
