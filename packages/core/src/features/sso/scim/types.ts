/**
 * The shapes of SCIM provisioning's `auth.api` methods and what they answer, with the names this feature
 * adds to the shared lists (owner-present operations, audit events) by declaration merging.
 *
 * @module features/sso/scim/types
 */
import type { RequestLike } from "../../../types/api.js";

/** A SCIM token as its organization's admins see it in a list: never the token or its hash. */
export interface ListedScimToken {
  /** Its public id: what `revokeScimToken` takes. */
  id: string;
  organizationId: string;
  /** `scim_` and the first 4 characters of the id: what to recognise it by. */
  start: string;
  /** The member who created it. */
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A new SCIM token: `token` is shown this once (give it to the identity provider), never again. */
export interface CreatedScimToken {
  token: string;
  scimToken: ListedScimToken;
}

/** SCIM provisioning's operations of `auth.api` (part of `AuthApi`). */
export interface ScimApi {
  /**
   * A new SCIM token of the organization, for its identity provider (`Authorization: Bearer scim_…` on
   * `<basePath>/scim/v2/…`). Returns the token ONCE. The caller's role must grant `sso:manage` and their
   * session must meet the organization's sign-in policy; an owner-present operation. Throws
   * `SessionRequired`, `RecentSignInRequired`, `OrganizationNotFound`, `OrganizationPolicy`, `OrganizationForbidden`.
   */
  createScimToken(request: RequestLike, input: { organizationId: string }): Promise<CreatedScimToken>;
  /** The organization's live SCIM tokens (with `sso:manage`, the session meeting the organization's policy). */
  listScimTokens(request: RequestLike, input: { organizationId: string }): Promise<ListedScimToken[]>;
  /**
   * Revokes a SCIM token of the organization: its next request is refused. To rotate, create the new token,
   * give it to the identity provider, then revoke the old one. An owner-present operation, under the same
   * checks as `createScimToken`. Throws `ScimTokenNotFound` as well.
   */
  revokeScimToken(request: RequestLike, input: { organizationId: string; tokenId: string }): Promise<void>;
}

declare module "../../../types/api.js" {
  interface AuthApi extends ScimApi {}
}

declare module "../../../types/operation.js" {
  interface OwnerOperations {
    createScimToken: true;
    revokeScimToken: true;
  }
}

declare module "../../../types/telemetry.js" {
  interface AuditEventTypes {
    scimTokenCreated: true;
    scimTokenRevoked: true;
    scimUserCreated: true;
    scimUserUpdated: true;
    scimUserDeprovisioned: true;
    scimUserReactivated: true;
    scimUserDeleted: true;
    scimGroupCreated: true;
    scimGroupUpdated: true;
    scimGroupDeleted: true;
    scimRoleChanged: true;
  }
}
