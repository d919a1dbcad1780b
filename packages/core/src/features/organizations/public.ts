/**
 * The organizations' values an app uses while it writes its configuration (`defineRoles`, the default
 * roles, the permission names): they load with the package, while the feature's own code loads only for a
 * configuration that turns organizations on (an on-demand feature, `kernel/features.ts`).
 *
 * @module features/organizations/public
 */
export { defaultRoles, defineRoles, ORGANIZATION_PERMISSIONS } from "./permissions.js";
