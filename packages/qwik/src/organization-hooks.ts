/**
 * The organizations' hooks of `FrameworkAuth$` (core's `organizations` option, docs/organizations.md): one
 * `globalAction$` per core operation, written out (the Qwik optimizer makes each a segment where it sees
 * it), each one line over the table of `operation-actions.ts`. `useOrganizations()` lists the user's
 * organizations; the built-in pages (`<basePath>/organization`, the invitation page) need none of these.
 */
import type { ListedDomain, ListedInvitation, ListedMember, Member, Organization, OrganizationMembership } from "@authlib/core";
import { type Action, globalAction$, routeLoader$, validator$, type z } from "@builder.io/qwik-city";
import type { FrameworkAuthConfigQrl } from "./context.js";
import { type OrganizationsResult, runListing, runOperation, validateOperation } from "./operation-actions.js";
import type * as orgs from "./organizations.js";
import type { OrganizationResult as Result } from "./organizations.js";

/** The input of an action, as its schema takes it. */
type In<Schema extends z.ZodTypeAny> = z.input<Schema>;
/** What `useSetActiveOrganization` answers. */
export type ActiveOrganizationResult = { activeOrganizationId: string | null; role?: string };

/** `useOrganizations`, `useCreateOrganization`, `useUpdateOrganization`, `useDeleteOrganization`: the user's organizations, creating, changing and deleting one. */
export function organizationHooks(configQrl: FrameworkAuthConfigQrl) {
  /**
   * The signed-in user's organizations with their role in each: `{ organizations }`, or
   * `{ organizations: null, error }` (`"SessionRequired"` signed out, `"UnknownAction"` without the
   * `organizations` option, `"Configuration"` when listing failed).
   */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useOrganizations = routeLoader$((ev): Promise<OrganizationsResult> => runListing(ev, configQrl, "listOrganizations"));

  /** Creates an organization (fields `name`, `slug`), the caller its owner: `{ organization, role }`. Fails with `SlugTaken` (409), `InvalidOrganization`, `OrganizationLimit`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useCreateOrganization: Action<Result<OrganizationMembership>, In<typeof orgs.createOrganizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "createOrganization", form),
    validator$((_ev, data) => validateOperation("createOrganization", data)),
  );

  /** Changes the name, slug, domain join or sign-in policy (`organization:update`): `{ organization }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useUpdateOrganization: Action<Result<{ organization: Organization }>, In<typeof orgs.updateOrganizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "updateOrganization", form),
    validator$((_ev, data) => validateOperation("updateOrganization", data)),
  );

  /** Deletes the organization with its members, invitations and domains (owners only): `{ deleted: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useDeleteOrganization: Action<Result<{ deleted: true }>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "deleteOrganization", form),
    validator$((_ev, data) => validateOperation("deleteOrganization", data)),
  );
  return { useOrganizations, useCreateOrganization, useUpdateOrganization, useDeleteOrganization };
}

/** `useGetOrganization`, `useJoinOrganization`, `useSetActiveOrganization`, `useHasPermission`: one organization, joining one, the active one, permissions. */
export function activeOrganizationHooks(configQrl: FrameworkAuthConfigQrl) {
  /** One of the caller's organizations and their role there: `{ organization, role }`. Fails with `OrganizationNotFound` (404) or `OrganizationPolicy` (403). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useGetOrganization: Action<Result<OrganizationMembership>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "getOrganization", form),
    validator$((_ev, data) => validateOperation("getOrganization", data)),
  );

  /** Joins an organization the caller's proven address's domain offers: `{ organizationId, role }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useJoinOrganization: Action<Result<{ organizationId: string; role: string }>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "joinOrganization", form),
    validator$((_ev, data) => validateOperation("joinOrganization", data)),
  );

  /** Makes `organizationId` the session's active organization (none given: no active one); `useSession()` then shows `activeOrganizationId` and `activeOrganizationRole`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useSetActiveOrganization: Action<Result<ActiveOrganizationResult>, In<typeof orgs.activeOrganizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "setActiveOrganization", form),
    validator$((_ev, data) => validateOperation("setActiveOrganization", data)),
  );

  /** Whether the caller's role in `organizationId` (default: the active organization) grants `permission`: `{ allowed }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useHasPermission: Action<Result<{ allowed: boolean }>, In<typeof orgs.permissionSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "hasPermission", form),
    validator$((_ev, data) => validateOperation("hasPermission", data)),
  );
  return { useGetOrganization, useJoinOrganization, useSetActiveOrganization, useHasPermission };
}

/** `useListMembers`, `useUpdateMemberRole`, `useRemoveMember`, `useLeaveOrganization`: members. */
export function memberHooks(configQrl: FrameworkAuthConfigQrl) {
  /** The organization's members with their names, addresses and roles: `{ members }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useListMembers: Action<Result<{ members: ListedMember[] }>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "listMembers", form),
    validator$((_ev, data) => validateOperation("listMembers", data)),
  );

  /** Gives another member a new role, never above the caller's own: `{ member }`. Fails with `OrganizationForbidden` (403), `LastOwner` (409). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useUpdateMemberRole: Action<Result<{ member: Member }>, In<typeof orgs.memberRoleSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "updateMemberRole", form),
    validator$((_ev, data) => validateOperation("updateMemberRole", data)),
  );

  /** Removes a member whose role grants no more than the caller's: `{ removed: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRemoveMember: Action<Result<{ removed: true }>, In<typeof orgs.memberSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "removeMember", form),
    validator$((_ev, data) => validateOperation("removeMember", data)),
  );

  /** The caller leaves the organization (not its last owner: `LastOwner`): `{ left: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useLeaveOrganization: Action<Result<{ left: true }>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "leaveOrganization", form),
    validator$((_ev, data) => validateOperation("leaveOrganization", data)),
  );
  return { useListMembers, useUpdateMemberRole, useRemoveMember, useLeaveOrganization };
}

/** `useInviteMember`, `useListInvitations`, `useRevokeInvitation`, `useAcceptInvitation`: invitations. */
export function invitationHooks(configQrl: FrameworkAuthConfigQrl) {
  /** Invites `email` with `role` (mailed; the link opens core's invitation page): `{ invitation }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useInviteMember: Action<Result<{ invitation: ListedInvitation }>, In<typeof orgs.inviteSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "inviteMember", form),
    validator$((_ev, data) => validateOperation("inviteMember", data)),
  );

  /** The organization's invitations that wait: `{ invitations }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useListInvitations: Action<Result<{ invitations: ListedInvitation[] }>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "listInvitations", form),
    validator$((_ev, data) => validateOperation("listInvitations", data)),
  );

  /** Revokes a waiting invitation: `{ revoked: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRevokeInvitation: Action<Result<{ revoked: true }>, In<typeof orgs.invitationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "revokeInvitation", form),
    validator$((_ev, data) => validateOperation("revokeInvitation", data)),
  );

  /** Accepts an invitation (`invitationId`, `token` of its link) for the signed-in invited address: `{ organizationId, role }`. Fails with `InvitationInvalid` (400), whatever the cause. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useAcceptInvitation: Action<
    Result<{ organizationId: string; role: string }>,
    In<typeof orgs.acceptInvitationSchema>
  > = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "acceptInvitation", form),
    validator$((_ev, data) => validateOperation("acceptInvitation", data)),
  );
  return { useInviteMember, useListInvitations, useRevokeInvitation, useAcceptInvitation };
}

/** `useListDomains`, `useAddDomain`, `useVerifyDomain`, `useRemoveDomain`: verified domains. */
export function domainHooks(configQrl: FrameworkAuthConfigQrl) {
  /** The organization's domains, each with the TXT record to publish: `{ domains }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useListDomains: Action<Result<{ domains: ListedDomain[] }>, In<typeof orgs.organizationSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "listDomains", form),
    validator$((_ev, data) => validateOperation("listDomains", data)),
  );

  /** Claims a domain; it is proven once its TXT record is published and checked: `{ domain }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useAddDomain: Action<Result<{ domain: ListedDomain }>, In<typeof orgs.domainSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "addDomain", form),
    validator$((_ev, data) => validateOperation("addDomain", data)),
  );

  /** Checks a domain's TXT record: `{ domain }`. Fails with `DomainNotProven` or `DomainClaimed` (409). */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useVerifyDomain: Action<Result<{ domain: ListedDomain }>, In<typeof orgs.domainIdSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "verifyDomain", form),
    validator$((_ev, data) => validateOperation("verifyDomain", data)),
  );

  /** Gives up a domain: `{ removed: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRemoveDomain: Action<Result<{ removed: true }>, In<typeof orgs.domainIdSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "removeDomain", form),
    validator$((_ev, data) => validateOperation("removeDomain", data)),
  );
  return { useListDomains, useAddDomain, useVerifyDomain, useRemoveDomain };
}
