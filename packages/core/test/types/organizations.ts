// Type test (compiled by `tsc`, never run): an app registers its roles once, and every permission check is
// typed by them: a permission that no role declares is a TypeScript error at `auth.api.hasPermission` and
// at `roles.can`; authlib's own permissions stay valid.
import { createAuth, defineRoles, type Permission } from "@authlib/core";

export const roles = defineRoles({
  owner: ["invoice:approve", "invoice:read"],
  admin: ["invoice:approve", "invoice:read"],
  accountant: ["invoice:read"],
});

declare module "@authlib/core" {
  interface OrganizationsRegister {
    roles: typeof roles;
  }
}

const auth = createAuth({ providers: [], organizations: { roles } });
declare const request: Request;

export async function checks(): Promise<boolean[]> {
  const allowed: boolean[] = [
    await auth.api.hasPermission(request, { permission: "invoice:approve" }),
    await auth.api.hasPermission(request, { organizationId: "org", permission: "member:invite" }),
    roles.can({ role: "accountant" }, "invoice:read"),
    roles.can({ role: "member" }, "organization:read"),
    // @ts-expect-error: no role declares "invoice:delete".
    await auth.api.hasPermission(request, { permission: "invoice:delete" }),
    // @ts-expect-error: no role declares "invoice:delete".
    roles.can({ role: "owner" }, "invoice:delete"),
  ];
  return allowed;
}

// The registered permissions are the declared statements and authlib's own, and nothing else.
const declared: Permission[] = ["invoice:approve", "invoice:read", "organization:read", "domain:manage"];
// @ts-expect-error: not a declared permission.
const undeclared: Permission = "invoice:delete";

export { declared, undeclared };
