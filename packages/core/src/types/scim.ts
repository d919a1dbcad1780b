/**
 * The shapes of SCIM 2.0 provisioning (RFC 7643/7644, docs/sso.md): the records an adapter stores for an
 * organization's directory (its tokens, users, groups and group members) and the adapter methods that keep
 * them. Every read and write of a directory record is keyed by the organization, so that a token of one
 * organization can never reach another's. The feature's code is in `features/sso/scim/`.
 *
 * @module types/scim
 */
import type { Awaitable } from "./base.js";

/** A JSON value as a SCIM resource holds it. */
export type ScimJson = string | number | boolean | null | ScimJson[] | { [key: string]: ScimJson };

/** A JSON object: a SCIM resource, or a part of one. */
export type ScimObject = { [key: string]: ScimJson };

/** An organization's SCIM bearer token, as stored: never the token, only its keyed hash. */
export interface ScimTokenRecord {
  /** Its public id (16 base62 characters): how it is looked up, shown in lists and audit rows. */
  id: string;
  organizationId: string;
  /** HMAC-SHA256 (hex) of the id and secret under a key derived from the auth secret (`crypto/key-hash.ts`). */
  hash: string;
  /** What lists show: `scim_` and the first 4 characters of the id. */
  start: string;
  /** The member who created it. */
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** When it was revoked (or replaced); `null` while live. */
  revokedAt: Date | null;
}

/** A user of an organization's directory: a core user, their membership, and the SCIM resource. */
export interface ScimUserRecord {
  /** The SCIM id (the resource's `id`): authlib's, never the identity provider's. */
  id: string;
  organizationId: string;
  /** The core user this directory entry is. */
  userId: string;
  /** The identity provider's own id for it, or `null`. */
  externalId: string | null;
  /** Unique among the organization's live entries, compared without case (RFC 7643 §4.1.1). */
  userName: string;
  /** `false`: deprovisioned (their membership ended, every session and credential ended). */
  active: boolean;
  /** The resource as the identity provider last set it (without `id`, `meta`, `active`, `groups`): kept for round trips. */
  resource: ScimObject;
  /** Counts the changes: the resource's version (`meta.version`, `ETag`). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** When the identity provider deleted it (`DELETE`); a deleted entry is not found, but remembered as deprovisioned. */
  deletedAt: Date | null;
}

/** A group of an organization's directory. */
export interface ScimGroupRecord {
  id: string;
  organizationId: string;
  externalId: string | null;
  /** Unique among the organization's groups, compared without case. */
  displayName: string;
  /** The resource as last set (without `id`, `meta`, `members`). */
  resource: ScimObject;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The adapter methods SCIM provisioning needs (`sso.scim`). An adapter without them is refused at
 * `createAuth` (`MissingAdapterMethods`). Every directory read takes the organization: an entry of another
 * organization is `null` (or absent from a list), as if it did not exist. Deleting an organization deletes
 * its tokens and directory.
 */
export interface ScimAdapterMethods {
  /** Stores a new token (a taken id throws). */
  createScimToken?(token: ScimTokenRecord): Awaitable<ScimTokenRecord>;
  /** The token with this public id, whatever its organization (the request names none before it is read), or `null`. */
  getScimToken?(id: string): Awaitable<ScimTokenRecord | null>;
  /** Every token of the organization, revoked ones too. */
  listScimTokens?(organizationId: string): Awaitable<ScimTokenRecord[]>;
  /** Sets `revokedAt` of the organization's token (once: a revoked token keeps its first date). */
  revokeScimToken?(organizationId: string, id: string, revokedAt: Date): Awaitable<void>;
  /** Notes the token's use. */
  touchScimToken?(id: string, usedAt: Date): Awaitable<void>;
  /** Stores a new directory user (a taken id, or a live `userName` taken in the organization, throws). */
  createScimUser?(user: ScimUserRecord): Awaitable<ScimUserRecord>;
  /** The organization's live (not deleted) user with this SCIM id, or `null`. */
  getScimUser?(organizationId: string, id: string): Awaitable<ScimUserRecord | null>;
  /**
   * The organization's entry of the core user `userId`: the live one when there is one, else the latest
   * deleted one (what says the user was deprovisioned), or `null`.
   */
  getScimUserByUserId?(organizationId: string, userId: string): Awaitable<ScimUserRecord | null>;
  /** The organization's live users, oldest first. */
  listScimUsers?(organizationId: string): Awaitable<ScimUserRecord[]>;
  /** Replaces the stored fields of the organization's user `user.id`; returns it as stored. */
  updateScimUser?(user: ScimUserRecord): Awaitable<ScimUserRecord>;
  /** Stores a new group (a taken id or `displayName` in the organization throws). */
  createScimGroup?(group: ScimGroupRecord): Awaitable<ScimGroupRecord>;
  /** The organization's group with this id, or `null`. */
  getScimGroup?(organizationId: string, id: string): Awaitable<ScimGroupRecord | null>;
  /** The organization's groups, oldest first. */
  listScimGroups?(organizationId: string): Awaitable<ScimGroupRecord[]>;
  /** Replaces the stored fields of the organization's group `group.id`; returns it as stored. */
  updateScimGroup?(group: ScimGroupRecord): Awaitable<ScimGroupRecord>;
  /** Deletes the organization's group and its memberships. */
  deleteScimGroup?(organizationId: string, id: string): Awaitable<void>;
  /** Sets the members (SCIM user ids of the same organization) of the organization's group. */
  setScimGroupMembers?(organizationId: string, groupId: string, userIds: readonly string[]): Awaitable<void>;
  /** The SCIM user ids in the organization's group. */
  listScimGroupMembers?(organizationId: string, groupId: string): Awaitable<string[]>;
  /** The ids of the organization's groups that hold the SCIM user `userId`. */
  listScimGroupsOfUser?(organizationId: string, userId: string): Awaitable<string[]>;
}
