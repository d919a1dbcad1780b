/**
 * Roles and permissions (docs/organizations.md): an app declares its statements once, per role
 * (`defineRoles`), over authlib's own; `owner`, `admin` and `member` exist whatever it declares. A check is
 * pure: a member's role grants a permission, or not. Two rules keep a role from growing itself: nobody gives
 * a role that grants more than their own (an invitation, a role change), and nobody acts on a member whose
 * role grants more than their own (an admin cannot remove an owner).
 *
 * @module features/organizations/permissions
 */
import type { Member, RoleMap, Roles } from "../../types/organizations.js";

/** authlib's own permissions, which the built-in operations check. */
export const ORGANIZATION_PERMISSIONS = [
  "organization:read",
  "organization:update",
  "organization:delete",
  "member:invite",
  "member:update",
  "member:remove",
  "domain:manage",
  "sso:manage",
] as const;

/** One of authlib's own permissions. */
export type OrganizationPermission = (typeof ORGANIZATION_PERMISSIONS)[number];

/** What the built-in roles grant before the app adds its own statements. */
const BUILT_IN: Readonly<Record<"owner" | "admin" | "member", readonly OrganizationPermission[]>> = {
  owner: ORGANIZATION_PERMISSIONS,
  admin: [
    "organization:read",
    "organization:update",
    "member:invite",
    "member:update",
    "member:remove",
    "domain:manage",
    // SSO connections and SCIM tokens (issue 49): an admin manages them as they manage domains.
    "sso:manage",
  ],
  member: ["organization:read"],
};

/**
 * The roles of an app: `defineRoles({ admin: ["invoice:approve"], accountant: ["invoice:read"] })`. The
 * built-in roles keep authlib's permissions and gain the app's; the owner holds every permission of every
 * role; `can` is typed by the statements given.
 */
export function defineRoles<const M extends Record<string, readonly string[]>>(map: M): Roles<M[keyof M][number] | OrganizationPermission> {
  type P = M[keyof M][number] | OrganizationPermission;
  const merged: Record<string, Set<string>> = {};
  for (const [role, permissions] of Object.entries({ ...BUILT_IN, ...map })) {
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(role))
      throw new TypeError(`The role name "${role}" must be 1 to 32 lower-case letters, digits, _ or -.`);
    // Every role may at least read its organization (what a member may).
    merged[role] = new Set([...BUILT_IN.member, ...(BUILT_IN[role as keyof typeof BUILT_IN] ?? []), ...permissions]);
  }
  // The owner may do anything any role may.
  merged.owner = new Set(Object.values(merged).flatMap((permissions) => [...permissions]));
  const frozen = Object.freeze(Object.fromEntries(Object.entries(merged).map(([role, set]) => [role, Object.freeze([...set])])));
  return Object.freeze({
    map: frozen as RoleMap<P>,
    can: (member: Pick<Member, "role"> | null | undefined, permission: P) =>
      member != null && Object.hasOwn(merged, member.role) && (merged[member.role] as Set<string>).has(permission),
  });
}

/** The roles when the app declares none: the built-in three with authlib's permissions. */
export const defaultRoles: Roles<OrganizationPermission> = defineRoles({});

/** True when `role` is one of `roles`. */
export function isRole(roles: Roles<string>, role: string): boolean {
  return Object.hasOwn(roles.map, role);
}

/** True when everything `role` grants, `actorRole` grants too (so the actor may give it, or act on its holder). */
export function grantsNoMoreThan(roles: Roles<string>, role: string, actorRole: string): boolean {
  if (actorRole === "owner") return true;
  if (role === "owner" || !isRole(roles, role)) return false;
  return (roles.map[role] ?? []).every((permission) => roles.can({ role: actorRole }, permission));
}
