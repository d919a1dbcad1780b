/**
 * The types of the resource side (`@authlib/core/resource`): what an API or MCP server passes to
 * `protectResource`, what it gets back, and the shapes of the revocation check and the metadata document.
 *
 * @module resource/types
 */
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from "jose";

/** The claims of an access token authlib issues (RFC 9068), as verified. */
export interface AccessTokenClaims extends JWTPayload {
  iss: string;
  /** The user the token acts for. */
  sub: string;
  /** The resources (RFC 8707) the token is for. */
  aud: string | string[];
  client_id: string;
  /** The granted scopes, space-separated. */
  scope: string;
  iat: number;
  exp: number;
  jti: string;
  /** The grant the token belongs to: revoking the grant revokes the token. */
  grant_id: string;
  /** When the user signed in (seconds since the epoch). */
  auth_time?: number;
  /** The sign-in's assurance level. */
  acr?: string;
}

/**
 * Whether a grant was revoked. Called after the token's signature and claims are verified, with the
 * token's `grant_id` and the token itself (for a check that asks the issuer about the token, RFC 7662).
 * A throw fails the request (it is not an answer about the token).
 */
export interface RevocationCheck {
  /** `true` when the grant (and so every token of it) is revoked. */
  isRevoked(grantId: string, token: string): Promise<boolean>;
}

/** The options of `protectResource`. */
export interface ProtectResourceOptions {
  /** The issuer's identifier: the token's `iss` must equal it. */
  issuer: string;
  /** This resource's identifier (RFC 8707): the token's `aud` must contain it exactly. */
  resource: string;
  /** The scopes the request needs: every one must be in the token's `scope`. */
  scopes?: string[];
  /**
   * The issuer's public keys, given here: a JWK Set, or a key resolver (jose's `createLocalJWKSet` or
   * `createRemoteJWKSet`). Without it, the keys are fetched from `jwksUri` and kept.
   */
  jwks?: JSONWebKeySet | JWTVerifyGetKey;
  /** Where the issuer publishes its keys. Default: `<issuer>/oauth2/jwks`. */
  jwksUri?: string;
  /** Asked about the token's grant once the token is verified. Wrap it in `revocationWithin` to bound its cost. */
  revocation?: RevocationCheck;
  /** The clock skew allowed on `exp` and `iat`, in seconds. Default 5. */
  clockTolerance?: number;
  /** This resource's metadata URL (RFC 9728), named in the challenges. Default: the well-known URL of `resource`. */
  resourceMetadataUrl?: string;
}

/** Who called the resource: what a verified access token says. */
export interface ResourceCaller {
  /** The user the token acts for (`sub`). */
  userId: string;
  /** The client that holds the token (`client_id`). */
  clientId: string;
  /** The granted scopes. */
  scopes: string[];
  /** The grant the token belongs to (`grant_id`). */
  grantId: string;
  /** The token's id (`jti`). */
  tokenId: string;
  /** When the token expires (`exp`). */
  expiresAt: Date;
  /** When the user signed in (`auth_time`), when the token says. */
  authTime?: Date;
  /** The sign-in's assurance level (`acr`), when the token says. */
  acr?: string;
  /** Every claim of the token (frozen: it is shared with the next requests of the same token). */
  readonly claims: Readonly<AccessTokenClaims>;
}

/** What `protectedResourceMetadata` is built from. */
export interface ProtectedResourceMetadataOptions {
  /** This resource's identifier (an https URL; `http://localhost` in development). */
  resource: string;
  /** The issuers whose tokens the resource accepts. */
  authorizationServers: string[];
  /** The scopes the resource understands. */
  scopes?: string[];
  /** A name for people (shown by clients). */
  resourceName?: string;
  /** A page about the resource, for developers. */
  resourceDocumentation?: string;
}

/** The protected resource metadata document (RFC 9728 §2). */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: ["header"];
  resource_name?: string;
  resource_documentation?: string;
}
