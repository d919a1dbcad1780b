/**
 * The types of API keys (`apiKeys` in the configuration, docs/api-keys.md): the option, a key as stored
 * (its keyed hash, never the key), and the adapter methods that keep them.
 *
 * @module types/api-keys
 */
import type { Awaitable } from "./base.js";

/** A scope of the app's user keys, with what it gives in the user's words. */
export interface ApiKeyScopeDeclaration {
  description: string;
}

/** The `apiKeys` option: keys for users and organizations (docs/api-keys.md). */
export interface ApiKeysConfig {
  /**
   * The app's prefix of every key (`acme` gives `acme_…`): 2 to 16 lower-case letters and digits, starting
   * with a letter. Secret scanners recognise the app's keys by it and by the checksum.
   */
  prefix: string;
  /** The scopes a user key may carry, by name (`"projects:read"`). Default: none (user keys carry no scope). */
  scopes?: Record<string, ApiKeyScopeDeclaration>;
  /**
   * A request header that carries a key besides `Authorization: Bearer` (`"x-api-key"`). Default: only
   * `Authorization`.
   */
  header?: string;
  /** The most live keys one user (or organization) holds. Default 50. */
  maxPerUser?: number;
  /** A new key's lifetime in seconds when the caller names none (`null`: no expiry). Default 90 days. */
  defaultExpiresIn?: number | null;
  /** The longest lifetime a caller may ask for, in seconds (`null`: keys may never expire). Default 1 year. */
  maxExpiresIn?: number | null;
  /** The organization permission that creates, lists, revokes and rotates an organization's keys. Default `"organization:update"`. */
  organizationPermission?: string;
}

/** One API key as stored: its public id, its keyed hash, who holds it and what it may do. */
export interface ApiKeyRecord {
  /** The public id part of the key (16 base62 characters): how it is looked up, shown in lists and audit rows. */
  id: string;
  /** HMAC-SHA256 (hex) of the key's id and secret under a key derived from the auth secret. Never the key. */
  hash: string;
  /** The user who created it (an organization key acts within what this member's role permits). */
  userId: string;
  /** The organization it belongs to, or `null` for a user key. */
  organizationId: string | null;
  /** A name its owner gave it (`"CI deploy"`). */
  name: string;
  /** The start of the key shown to tell keys apart (`acme_AbCd…`): the prefix and the first characters of the public id. */
  start: string;
  scopes: string[];
  createdAt: Date;
  /** When it stops working, or `null` for never. */
  expiresAt: Date | null;
  /** When it was last used (written at most once a minute), or `null`. */
  lastUsedAt: Date | null;
  /** When it was revoked (or rotated out), or `null` while live. */
  revokedAt: Date | null;
}

/**
 * The adapter methods API keys need. An adapter without them is refused at `createAuth`
 * (`MissingAdapterMethods`). Deleting a user deletes their keys (a foreign key in a database).
 */
export interface ApiKeyAdapterMethods {
  /** Stores a new key; throws when its id is taken. */
  createApiKey?(key: ApiKeyRecord): Awaitable<ApiKeyRecord>;
  /** The key with this id, revoked, expired or not, or `null`. */
  getApiKey?(id: string): Awaitable<ApiKeyRecord | null>;
  /** Every key the user created (their user keys and the organization keys they made), oldest first. */
  listApiKeysByUser?(userId: string): Awaitable<ApiKeyRecord[]>;
  /** The organization's keys, oldest first. */
  listApiKeysByOrganization?(organizationId: string): Awaitable<ApiKeyRecord[]>;
  /** Marks the key revoked; a key revoked already keeps its first `revokedAt`. */
  revokeApiKey?(id: string, revokedAt: Date): Awaitable<void>;
  /** Marks every unrevoked key the user created (user and organization keys) revoked. */
  revokeApiKeysByUser?(userId: string, revokedAt: Date): Awaitable<void>;
  /**
   * Sets `lastUsedAt` to `usedAt` only if it is unset or older than `usedAt` minus `minInterval` ms: `true`
   * when this call wrote it (atomic), so of several instances one writes it per interval.
   */
  touchApiKey?(id: string, usedAt: Date, minInterval: number): Awaitable<boolean>;
}
