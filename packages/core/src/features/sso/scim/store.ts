/**
 * The adapter as SCIM provisioning uses it: the directory methods, typed as present (the start-up check
 * proved them, `FeatureDefinition.adapterNeeds`), with the core user and membership methods it writes, and
 * the `sso.scim` option resolved.
 *
 * @module features/sso/scim/store
 */
import type { Adapter } from "../../../types/adapters.js";
import type { ConfigOptions } from "../../../types/internal.js";
import type { OrganizationAdapterMethods } from "../../../types/organizations.js";
import type { ScimAdapterMethods } from "../../../types/scim.js";

/** The directory methods and the core ones SCIM writes, every one present. */
export type ScimStore = Required<ScimAdapterMethods> &
  Required<
    Pick<
      OrganizationAdapterMethods,
      "getOrganization" | "getMember" | "createMember" | "updateMember" | "deleteMember" | "listDomainsByName"
    >
  > &
  Required<Pick<Adapter, "createUser" | "getUser" | "getUserByEmail" | "updateUser">> &
  Pick<Adapter, "deleteSessionsByUserId">;

/** Every directory method SCIM needs, in the order the start-up check names the missing ones. */
export const scimMethods = [
  "createScimToken",
  "getScimToken",
  "listScimTokens",
  "revokeScimToken",
  "touchScimToken",
  "createScimUser",
  "getScimUser",
  "getScimUserByUserId",
  "listScimUsers",
  "updateScimUser",
  "createScimGroup",
  "getScimGroup",
  "listScimGroups",
  "updateScimGroup",
  "deleteScimGroup",
  "setScimGroupMembers",
  "listScimGroupMembers",
  "listScimGroupsOfUser",
  "createUser",
  "updateUser",
] as const satisfies ReadonlyArray<keyof Adapter>;

/** The adapter's SCIM methods (present: checked at start-up, with the organization ones). */
export function storeOf(options: Pick<ConfigOptions, "adapter">): ScimStore {
  return options.adapter as ScimStore;
}

/** The most resources one list answers, by default. */
export const DEFAULT_MAX_RESULTS = 100;

/** The most resources one list answers (`sso.scim.maxResults`). */
export function maxResultsOf(options: Pick<ConfigOptions, "config">): number {
  return options.config.sso?.scim?.maxResults ?? DEFAULT_MAX_RESULTS;
}
