/**
 * Organizations (docs/organizations.md): tenants with members, roles, invitations, verified domains and
 * their own sign-in policy, as JSON routes under `<basePath>/organization/*` (each POST CSRF-checked) and
 * `auth.api`. Turned on by `organizations: {}`; its code loads with the first request to it.
 *
 * @module features/organizations
 */
import type { ConfigOptions, InternalOptions } from "../../types/internal.js";
import type { OperationDeclaration, OperationNeeds } from "../../types/operation.js";
import type { DomainRecheck, OrganizationChangedMessage } from "../../types/organizations.js";
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
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
import { organizationMessages } from "./messages.js";
import { organizationMethods, organizationsConfigError } from "./store.js";

export { defaultRoles, defineRoles, ORGANIZATION_PERMISSIONS } from "./permissions.js";

const organizations = () => import("./organizations.js");
const invitations = () => import("./invitations.js");
const domains = () => import("./domains.js");
const pages = () => import("./pages.js");
const pageForms = () => import("./page-forms.js");

/** A change proves the form's CSRF token first; a read needs none. */
const change: OperationNeeds = { csrf: "prove" };

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

/**
 * A form of the organization page (`organization/form-<path>`): runs the JSON operation `name` by name and
 * comes back to the page with `?done=<done>`, or with `?error=<type>` when refused.
 */
function pageForm(name: string, path: string, run: string, done: string): OperationDeclaration {
  return {
    name,
    method: "POST",
    path: `organization/form-${path}`,
    needs: change,
    presentation: async (options, request, error) => (await pageForms()).formRefusal(options, request, error),
    handler: async (options, request) => (await pageForms()).runForm(options, request, run, done),
  };
}

/** The built-in pages (`pages.ts`) and their forms (`page-forms.ts`): a page mints the CSRF token its forms prove. */
const pageOperations: readonly OperationDeclaration[] = [
  {
    name: "organizationPage",
    method: "GET",
    path: "organization",
    needs: { csrf: "mint" },
    presentation: "page",
    handler: lazyHandler(pages, "organizationPage"),
  },
  // The invitation mail's link: it shows the invitation; only its button (a POST) accepts.
  {
    name: "invitationPage",
    method: "GET",
    path: "organization/invitation",
    needs: { csrf: "mint" },
    presentation: "page",
    handler: lazyHandler(pages, "invitationPage"),
  },
  {
    name: "acceptInvitationForm",
    method: "POST",
    path: "organization/invitation",
    needs: change,
    presentation: async (options, request, error) => (await pageForms()).acceptRefusal(options, request, error),
    handler: async (options, request) => (await pageForms()).runForm(options, request, "acceptInvitation", "joined"),
  },
  pageForm("createOrganizationForm", "create", "createOrganization", "created"),
  pageForm("setActiveOrganizationForm", "active", "setActiveOrganization", "active"),
  pageForm("updateMemberRoleForm", "member-role", "updateMemberRole", "roleChanged"),
  pageForm("removeMemberForm", "member-remove", "removeMember", "removed"),
  pageForm("leaveOrganizationForm", "leave", "leaveOrganization", "left"),
  pageForm("inviteMemberForm", "invite", "inviteMember", "invited"),
  pageForm("revokeInvitationForm", "invitation-revoke", "revokeInvitation", "revoked"),
  pageForm("addDomainForm", "domain-add", "addDomain", "domainAdded"),
  pageForm("verifyDomainForm", "domain-verify", "verifyDomain", "domainVerified"),
  pageForm("removeDomainForm", "domain-remove", "removeDomain", "domainRemoved"),
  {
    name: "organizationPolicyForm",
    method: "POST",
    path: "organization/form-policy",
    needs: change,
    presentation: async (options, request, error) => (await pageForms()).formRefusal(options, request, error),
    handler: lazyHandler(pageForms, "policyForm"),
  },
];

/**
 * The membership cache's code once loaded: every session check with an active organization asks it, and an
 * `import()` per check (a module-map lookup and a promise) cost more than the lookup itself.
 */
let membershipCache: typeof import("./membership-cache.js") | undefined;

async function loadedRoleIn(options: InternalOptions, userId: string, organizationId: string): Promise<string | null> {
  membershipCache = await import("./membership-cache.js");
  return membershipCache.roleIn(options, userId, organizationId);
}

/**
 * Re-checks every proven domain of the instance (`auth.api.verifyDomains()`, `authlib org verify-domains`):
 * server code, no request; a domain whose record is gone loses its proof.
 */
export async function recheckDomains(options: ConfigOptions): Promise<DomainRecheck> {
  return (await domains()).recheckDomains(options);
}

/** The audit row of an organization change: who (the actor), which organization and what (in `detail`). */
function auditRow(message: OrganizationChangedMessage) {
  const detail = [
    message.change,
    `organization=${message.organizationId}`,
    message.targetId && `target=${message.targetId}`,
    message.role && `role=${message.role}`,
  ];
  return { type: "organizationChanged" as const, userId: message.actorId, provider: null, detail: detail.filter(Boolean).join(" ") };
}

const operations: readonly OperationDeclaration[] = [
  createOrganization,
  updateOrganization,
  deleteOrganization,
  listOrganizations,
  getOrganization,
  joinOrganization,
  listMembers,
  updateMemberRole,
  removeMember,
  leaveOrganization,
  setActiveOrganization,
  hasPermission,
  inviteMember,
  listInvitations,
  revokeInvitation,
  acceptInvitation,
  listDomains,
  addDomain,
  verifyDomain,
  removeDomain,
  ...pageOperations,
];

export const organizationsFeature = defineFeature({
  name: "organizations",
  enabled: (config) => config.organizations !== undefined,
  messages: organizationMessages,
  check: organizationsConfigError,
  adapterNeeds: (config) =>
    config.organizations === undefined ? undefined : { feature: "Organizations (`organizations`)", methods: organizationMethods },
  audit: {
    events: { organizationChanged: auditRow },
    // A refused change in an organization (not a member, a role too low, a policy unmet) is its own failure.
    failures: {
      routes: operations.filter((operation) => operation.method === "POST").map((operation) => operation.path),
      type: "organizationRefused",
    },
  },
  // The switcher on the account page: the user's organizations, each made active by a form.
  accountSection: {
    render: async (options, request, page) => (await import("./account-section.js")).organizationsAccountSection(options, request, page),
  },
  // The session shows its active organization with the member's role, read within the session-control bound.
  hooks: {
    organizationRole: (options, userId, organizationId) =>
      membershipCache ? membershipCache.roleIn(options, userId, organizationId) : loadedRoleIn(options, userId, organizationId),
  },
  operations,
});
