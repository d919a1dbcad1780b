/**
 * How a directory's groups give organization roles: a group whose `displayName`, in lower case, is a role
 * the app declares (`defineRoles`; `admin`, `member`, or the app's own) gives that role to its members. A
 * member of several such groups gets the one that grants the most permissions; a member of none is a
 * `member`. The `owner` role is never given by a group, and an owner's role is never changed by one: the
 * organization's owners are managed in authlib (an identity provider's admin could otherwise make
 * themselves the owner).
 *
 * @module features/sso/scim/roles
 */
import { recordAuditEvent } from "../../../audit/index.js";
import type { ScimUserRecord } from "../../../types/scim.js";
import { defaultRoles } from "../../organizations/public.js";
import type { ScimContext } from "./resource.js";
import { storeOf } from "./store.js";

/** The role a group of this `displayName` gives, or `undefined` for a group that maps to none. */
export function roleOfGroup(context: Pick<ScimContext, "options">, displayName: string): string | undefined {
  const roles = context.options.config.organizations?.roles ?? defaultRoles;
  const name = displayName.trim().toLowerCase();
  return name !== "owner" && Object.hasOwn(roles.map, name) ? name : undefined;
}

/** The role the directory's groups give `scimUserId`. */
export async function roleFromGroups(context: ScimContext, scimUserId: string): Promise<string> {
  const store = storeOf(context.options);
  const roles = context.options.config.organizations?.roles ?? defaultRoles;
  const groupIds = await store.listScimGroupsOfUser(context.organizationId, scimUserId);
  const groups = await Promise.all(groupIds.map((id) => store.getScimGroup(context.organizationId, id)));
  const given = groups.flatMap((group) => {
    const role = group ? roleOfGroup(context, group.displayName) : undefined;
    return role === undefined ? [] : [role];
  });
  // The widest role wins; between two as wide, the first by name (an order that does not depend on the store's).
  const width = (role: string) => roles.map[role]?.length ?? 0;
  return given.sort((a, b) => width(b) - width(a) || (a < b ? -1 : 1))[0] ?? "member";
}

/**
 * Makes the membership of an active directory user what the directory says: a member (made when missing,
 * a reactivation) with the role its groups give. An owner keeps their role.
 */
export async function syncMembership(context: ScimContext, user: ScimUserRecord): Promise<void> {
  if (!user.active || user.deletedAt !== null) return;
  const store = storeOf(context.options);
  const role = await roleFromGroups(context, user.id);
  const member = await store.getMember(context.organizationId, user.userId);
  if (!member) {
    await store.createMember({ organizationId: context.organizationId, userId: user.userId, role, createdAt: new Date() });
    return;
  }
  if (member.role === "owner" || member.role === role) return;
  await store.updateMember({ organizationId: context.organizationId, userId: user.userId, role });
  recordAuditEvent(context.options, context.request, {
    type: "scimRoleChanged",
    userId: user.userId,
    detail: `organization=${context.organizationId} scimUser=${user.id} role=${role} token=${context.tokenId}`,
  });
}
