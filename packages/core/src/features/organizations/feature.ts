/**
 * Organizations (docs/organizations.md): tenants with members, roles, invitations, verified domains and
 * their own sign-in policy, as JSON routes under `<basePath>/organization/*` (each POST CSRF-checked) and
 * `auth.api`. Turned on by `organizations: {}`; its code loads with the first request to it.
 *
 * @module features/organizations
 */
import type { InternalOptions } from "../../types/internal.js";
import type { OperationDeclaration } from "../../types/operation.js";
import type { OrganizationChangedMessage } from "../../types/organizations.js";
import { defineFeature, lazyHandler } from "../define.js";
import { organizationsApi } from "./api.js";
import { organizationMessages } from "./messages.js";
import * as declared from "./operations.js";
import { organizationMethods, organizationsConfigError } from "./store.js";

export { defaultRoles, defineRoles, ORGANIZATION_PERMISSIONS } from "./permissions.js";

const pages = () => import("./pages.js");
const pageForms = () => import("./page-forms.js");
const { change } = declared;

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

/** The JSON operations, then the pages and their forms. */
const operations: readonly OperationDeclaration[] = [
  declared.createOrganization,
  declared.updateOrganization,
  declared.deleteOrganization,
  declared.listOrganizations,
  declared.getOrganization,
  declared.joinOrganization,
  declared.listMembers,
  declared.updateMemberRole,
  declared.removeMember,
  declared.leaveOrganization,
  declared.setActiveOrganization,
  declared.hasPermission,
  declared.inviteMember,
  declared.listInvitations,
  declared.revokeInvitation,
  declared.acceptInvitation,
  declared.listDomains,
  declared.addDomain,
  declared.verifyDomain,
  declared.removeDomain,
  ...pageOperations,
];

export const organizationsFeature = defineFeature({
  name: "organizations",
  enabled: (config) => config.organizations !== undefined,
  turnedOnBy: "organizations",
  events: ["organizationChanged"],
  api: organizationsApi(declared),
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
  // An admin's view of a user (the admin feature's `getUser`): their organizations and roles.
  userDetails: {
    name: "organizations",
    read: async (options, userId) => (await import("./organizations.js")).membershipsOf(options, userId),
  },
  operations,
});
