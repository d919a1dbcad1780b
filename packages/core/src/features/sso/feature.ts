/**
 * Enterprise SSO per organization (docs/sso.md), turned on by `sso: {…}` (needs `organizations`). This
 * definition holds SCIM provisioning (`scim/`): the organization admins' SCIM tokens and the SCIM 2.0
 * endpoint at `<basePath>/scim/v2/…`. Its code loads with the first request to it.
 *
 * @module features/sso/feature
 */
import { AuthError } from "../../errors.js";
import { defineFeature } from "../define.js";
import { scimApi, scimMethods, scimOperations } from "./scim/public.js";

export type { CreatedScimToken, ListedScimToken, ScimApi } from "./scim/public.js";

export const ssoFeature = defineFeature({
  name: "sso",
  enabled: (config) => config.sso !== undefined,
  turnedOnBy: "sso",
  api: scimApi,
  check: (config) => {
    if (config.sso === undefined) return undefined;
    if (config.organizations === undefined) return new AuthError("sso needs organizations: set `organizations: {}` too.");
    const max = config.sso.scim?.maxResults;
    if (max !== undefined && !(Number.isInteger(max) && max >= 1 && max <= 1000))
      return new AuthError("sso.scim.maxResults must be a whole number from 1 to 1000.");
    return undefined;
  },
  adapterNeeds: (config) => (config.sso === undefined ? undefined : { feature: "Enterprise SSO (`sso`)", methods: scimMethods }),
  quietErrors: [
    "ScimUnauthorized",
    "ScimInvalidRequest",
    "ScimResourceNotFound",
    "ScimConflict",
    "ScimForbidden",
    "ScimPreconditionFailed",
    "ScimTokenNotFound",
  ],
  ownerOperations: {
    createScimToken: { label: "SCIM token creation" },
    revokeScimToken: { label: "SCIM token revoke" },
  },
  operations: scimOperations,
});
