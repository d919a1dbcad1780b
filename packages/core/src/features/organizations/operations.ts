/**
 * The organizations' JSON operations, one declaration each: its route under `<basePath>/organization/`, its
 * needs (a change proves the CSRF token; a read needs none), its typed input and its handler, whose code
 * loads with its first request. `auth.api` calls them by these declarations (`api.ts`).
 *
 * @module features/organizations/operations
 */
import type { OperationNeeds } from "../../types/operation.js";
import { defineOperation, lazyHandler } from "../define.js";
import {
  acceptInput,
  activeInput,
  createInput,
  domainIdInput,
  domainInput,
  invitationInput,
  inviteInput,
  memberInput,
  organizationInput,
  permissionInput,
  roleInput,
  updateInput,
} from "./input.js";

const organizations = () => import("./organizations.js");
const invitations = () => import("./invitations.js");
const domains = () => import("./domains.js");

/** A change proves the form's CSRF token first; a read needs none. */
export const change: OperationNeeds = { csrf: "prove" };

export const createOrganization = defineOperation({
  name: "createOrganization",
  method: "POST",
  path: "organization/create",
  needs: change,
  presentation: "json",
  input: createInput,
  handler: lazyHandler(organizations, "createOrganization"),
});
export const updateOrganization = defineOperation({
  name: "updateOrganization",
  method: "POST",
  path: "organization/update",
  needs: change,
  presentation: "json",
  input: updateInput,
  handler: lazyHandler(organizations, "updateOrganization"),
});
export const deleteOrganization = defineOperation({
  name: "deleteOrganization",
  method: "POST",
  path: "organization/delete",
  needs: change,
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(organizations, "deleteOrganization"),
});
export const listOrganizations = defineOperation({
  name: "listOrganizations",
  method: "GET",
  path: "organization/list",
  presentation: "json",
  handler: lazyHandler(organizations, "listOrganizations"),
});
export const getOrganization = defineOperation({
  name: "getOrganization",
  method: "GET",
  path: "organization/get",
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(organizations, "getOrganization"),
});
export const joinOrganization = defineOperation({
  name: "joinOrganization",
  method: "POST",
  path: "organization/join",
  needs: change,
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(organizations, "joinOrganization"),
});
export const listMembers = defineOperation({
  name: "listMembers",
  method: "GET",
  path: "organization/members",
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(organizations, "listMembers"),
});
export const updateMemberRole = defineOperation({
  name: "updateMemberRole",
  method: "POST",
  path: "organization/member-role",
  needs: change,
  presentation: "json",
  input: roleInput,
  handler: lazyHandler(organizations, "updateMemberRole"),
});
export const removeMember = defineOperation({
  name: "removeMember",
  method: "POST",
  path: "organization/member-remove",
  needs: change,
  presentation: "json",
  input: memberInput,
  handler: lazyHandler(organizations, "removeMember"),
});
export const leaveOrganization = defineOperation({
  name: "leaveOrganization",
  method: "POST",
  path: "organization/leave",
  needs: change,
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(organizations, "leaveOrganization"),
});
export const setActiveOrganization = defineOperation({
  name: "setActiveOrganization",
  method: "POST",
  path: "organization/active",
  needs: change,
  presentation: "json",
  input: activeInput,
  handler: lazyHandler(organizations, "setActiveOrganization"),
});
export const hasPermission = defineOperation({
  name: "hasPermission",
  method: "GET",
  path: "organization/permission",
  presentation: "json",
  input: permissionInput,
  handler: lazyHandler(organizations, "hasPermission"),
});
export const inviteMember = defineOperation({
  name: "inviteMember",
  method: "POST",
  path: "organization/invite",
  needs: change,
  presentation: "json",
  input: inviteInput,
  handler: lazyHandler(invitations, "inviteMember"),
});
export const listInvitations = defineOperation({
  name: "listInvitations",
  method: "GET",
  path: "organization/invitations",
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(invitations, "listInvitations"),
});
export const revokeInvitation = defineOperation({
  name: "revokeInvitation",
  method: "POST",
  path: "organization/invitation-revoke",
  needs: change,
  presentation: "json",
  input: invitationInput,
  handler: lazyHandler(invitations, "revokeInvitation"),
});
export const acceptInvitation = defineOperation({
  name: "acceptInvitation",
  method: "POST",
  path: "organization/accept",
  needs: change,
  presentation: "json",
  input: acceptInput,
  handler: lazyHandler(invitations, "acceptInvitation"),
});
export const listDomains = defineOperation({
  name: "listDomains",
  method: "GET",
  path: "organization/domains",
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(domains, "listDomains"),
});
export const addDomain = defineOperation({
  name: "addDomain",
  method: "POST",
  path: "organization/domain-add",
  needs: change,
  presentation: "json",
  input: domainInput,
  handler: lazyHandler(domains, "addDomain"),
});
export const verifyDomain = defineOperation({
  name: "verifyDomain",
  method: "POST",
  path: "organization/domain-verify",
  needs: change,
  presentation: "json",
  input: domainIdInput,
  handler: lazyHandler(domains, "verifyDomain"),
});
export const removeDomain = defineOperation({
  name: "removeDomain",
  method: "POST",
  path: "organization/domain-remove",
  needs: change,
  presentation: "json",
  input: domainIdInput,
  handler: lazyHandler(domains, "removeDomain"),
});
