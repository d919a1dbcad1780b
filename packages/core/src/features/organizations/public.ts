/**
 * The organizations' values an app uses while it writes its configuration (`defineRoles`, the default
 * roles, the permission names): they load with the package, while the feature's own code loads only for a
 * configuration that turns organizations on (an on-demand feature, `kernel/features.ts`).
 *
 * @module features/organizations/public
 */
export { defaultRoles, defineRoles, ORGANIZATION_PERMISSIONS } from "./permissions.js";

/**
 * Who may act in an organization (`access.ts`: a member, whose session meets its policy, whose role grants
 * the permission), for the features that act in one (enterprise SSO's connections). A loader, so its code
 * loads with the first such request and never with the package.
 */
export const organizationAccess = () => import("./access.js");
