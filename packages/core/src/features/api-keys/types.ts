/**
 * API keys' public types, and what they add to the shared ones by declaration merging: their `auth.api`
 * operations, owner-present operations, audit events, rate limits and texts.
 *
 * @module features/api-keys/types
 */
import type { RequestLike } from "../../types/api.js";

/** A key as its holder sees it: never the key, never its hash. */
export interface ListedApiKey {
  /** Its public id (the `keyId` of revoke and rotate, and of audit rows). */
  id: string;
  name: string;
  /** How the key starts (`acme_AbCd`), to tell it apart from the others. */
  start: string;
  scopes: string[];
  /** The organization it belongs to, or `null` for a user key. */
  organizationId: string | null;
  createdAt: Date;
  /** When it was last used (written at most once a minute), or `null`. */
  lastUsedAt: Date | null;
  /** When it stops working, or `null` for never. */
  expiresAt: Date | null;
}

/** A new key: `key` is shown this once and never again (only its keyed hash is stored). */
export interface CreatedApiKey {
  key: string;
  apiKey: ListedApiKey;
}

/** What `verifyApiKey` answers for a valid key: who it acts for and what it may do. */
export interface VerifiedApiKey {
  keyId: string;
  /** The user who created it (for an organization key, the member it acts within). */
  userId: string;
  organizationId: string | null;
  scopes: string[];
}

/** The per-key limit on verifications (`rateLimit.apiKeys`). */
export interface ApiKeyRateLimits {
  /** Verifications of one key per window. Default 600. */
  perKeyMax?: number;
  /** The window, in seconds. Default 60. */
  windowSeconds?: number;
}

/** API keys' operations of `auth.api` (part of `AuthApi`). */
export interface ApiKeysApi {
  /**
   * Creates a key for the signed-in user, or for `organizationId` (with `apiKeys.organizationPermission` there,
   * scopes no wider than the member's role grants). Returns the key ONCE. An owner-present operation; the owner
   * is mailed. Throws `SessionRequired`, `RecentSignInRequired`, `InvalidApiKeyRequest`, `OrganizationNotFound`,
   * `OrganizationForbidden`.
   */
  createApiKey(
    request: RequestLike,
    input: { name: string; scopes?: string[]; expiresIn?: number; organizationId?: string },
  ): Promise<CreatedApiKey>;
  /** The signed-in user's live keys, or the organization's (with the permission). */
  listApiKeys(request: RequestLike, input?: { organizationId?: string }): Promise<ListedApiKey[]>;
  /** Revokes a key of the user's (or of an organization where they have the permission). Throws `ApiKeyNotFound`. */
  revokeApiKey(request: RequestLike, input: { keyId: string }): Promise<void>;
  /** A new key in place of `keyId`, which ends at once. Returns the new key ONCE. An owner-present operation. */
  rotateApiKey(request: RequestLike, input: { keyId: string }): Promise<CreatedApiKey>;
  /**
   * The key the request carries (`Authorization: Bearer <key>` or `apiKeys.header`), verified: who it acts
   * for, its organization and scopes. `scopes`: every one must be carried (`ApiKeyScopeExceeded` otherwise).
   * Throws `InvalidApiKey` (malformed, wrong checksum, unknown, wrong, revoked, rotated out, expired, its owner
   * suspended, an organization key whose creator lost the permission), `RateLimited`.
   */
  verifyApiKey(request: RequestLike, input?: { scopes?: string[] }): Promise<VerifiedApiKey>;
}

/** API keys' keys of the catalog (their texts live in `messages/`, one module per language). */
export interface ApiKeyMessages {
  "apiKeys.title": string;
  "apiKeys.none": string;
  "apiKeys.created": string;
  "apiKeys.lastUsed": string;
  "apiKeys.neverUsed": string;
  "apiKeys.expires": string;
  "apiKeys.neverExpires": string;
  "apiKeys.revoke": string;
  "apiKeys.revoked": string;
  "apiKeys.create": string;
  "apiKeys.name": string;
  "apiKeys.scopes": string;
  "apiKeys.newKey": string;
  "apiKeys.copyHint": string;
  "apiKeys.notFound": string;
  "apiKeys.invalid": string;
  "apiKeys.organizationTitle": string;
  "mail.change.apiKeyCreated": string;
  "mail.change.apiKeyRevoked": string;
}

declare module "../../types/api.js" {
  interface AuthApi extends ApiKeysApi {}
}

declare module "../../types/rate-limit.js" {
  interface RateLimitConfig {
    /** The per-key limit on API-key verifications (see {@link ApiKeyRateLimits}), or `false`. */
    apiKeys?: ApiKeyRateLimits | false;
  }
}

declare module "../../types/i18n.js" {
  interface FeatureMessageTexts extends ApiKeyMessages {}
}

declare module "../../types/operation.js" {
  interface OwnerOperations {
    createApiKey: true;
    rotateApiKey: true;
    revokeApiKey: true;
  }
}

declare module "../../types/telemetry.js" {
  interface AuditEventTypes {
    apiKeyCreated: true;
    apiKeyRevoked: true;
    apiKeyRotated: true;
    apiKeyUsed: true;
  }
}
