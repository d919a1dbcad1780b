/**
 * What the rest of the `sso` feature (the SSO sign-in) uses of SCIM provisioning: whether the directory
 * deprovisioned a user, and the operations the feature lists.
 *
 * @module features/sso/scim/public
 */
export { scimApi, scimApiNames } from "./api.js";
export { isDeprovisioned } from "./deprovisioned.js";
export { scimOperations } from "./operations.js";
export { scimMethods } from "./store.js";
export type { CreatedScimToken, ListedScimToken, ScimApi } from "./types.js";
