/**
 * The organizations' methods of `auth.api` (`FeatureDefinition.api`): each calls its declaration with its
 * typed input through the kernel's runner and answers its data; `verifyDomains` is server work without a
 * request. `OrganizationsApi` (types/api.ts) types them.
 *
 * @module features/organizations/api
 */
import { UnknownAction } from "../../errors.js";
import type { OrganizationsApi } from "../../types/api.js";
import type { ApiRunner, OperationDeclaration } from "../../types/operation.js";
import type * as Declared from "./operations.js";

/** The method `name` of `OrganizationsApi`, made from the kernel's runner. */
type Maker<K extends keyof OrganizationsApi> = (run: ApiRunner) => OrganizationsApi[K];

/** The organizations' `auth.api` methods over their declarations (`operations.ts`). */
export function organizationsApi(org: typeof Declared): { [K in keyof OrganizationsApi]: Maker<K> } {
  /** The data of `operation` for `input`. */
  const data =
    <Body>(operation: OperationDeclaration<unknown, Body>) =>
    (run: ApiRunner) =>
    (request: Parameters<ApiRunner["data"]>[0], input?: object) =>
      run.data(request, operation, { ...input });
  /** One field of the data of `operation`. */
  const field =
    <Body, F extends keyof Body>(operation: OperationDeclaration<unknown, Body>, name: F) =>
    (run: ApiRunner) =>
    async (request: Parameters<ApiRunner["data"]>[0], input?: object) =>
      (await run.data(request, operation, { ...input }))[name];
  /** Nothing, once `operation` is done. */
  const done =
    (operation: OperationDeclaration<unknown>) => (run: ApiRunner) => async (request: Parameters<ApiRunner["data"]>[0], input?: object) =>
      void (await run.call(request, operation, { ...input }));
  /** The data of `operation` and the cookies it sets (the session's active organization). */
  const withCookies =
    <Body>(operation: OperationDeclaration<unknown, Body>) =>
    (run: ApiRunner) =>
    async (request: Parameters<ApiRunner["data"]>[0], input?: object) => {
      const result = await run.call(request, operation, { ...input });
      return { ...(result.body as Body), cookies: result.cookies ?? [] };
    };
  return {
    createOrganization: data(org.createOrganization),
    updateOrganization: field(org.updateOrganization, "organization"),
    deleteOrganization: done(org.deleteOrganization),
    listOrganizations: data(org.listOrganizations),
    getOrganization: data(org.getOrganization),
    joinOrganization: data(org.joinOrganization),
    listMembers: field(org.listMembers, "members"),
    updateMemberRole: field(org.updateMemberRole, "member"),
    removeMember: done(org.removeMember),
    leaveOrganization: (run) => async (request, input) => ({
      cookies: (await withCookies(org.leaveOrganization)(run)(request, input)).cookies,
    }),
    inviteMember: field(org.inviteMember, "invitation"),
    listInvitations: field(org.listInvitations, "invitations"),
    revokeInvitation: done(org.revokeInvitation),
    acceptInvitation: data(org.acceptInvitation),
    listDomains: field(org.listDomains, "domains"),
    addDomain: field(org.addDomain, "domain"),
    verifyDomain: field(org.verifyDomain, "domain"),
    removeDomain: done(org.removeDomain),
    setActiveOrganization: (run) => (request, input) =>
      withCookies(org.setActiveOrganization)(run)(request, { organizationId: input?.organizationId ?? undefined }),
    hasPermission: field(org.hasPermission, "allowed"),
    verifyDomains: (run) => () =>
      run.server(async (options) => {
        if (options.config.organizations === undefined)
          throw new UnknownAction("verifyDomains needs organizations on (`organizations: {}` in the configuration).");
        return (await import("./domains.js")).recheckDomains(options);
      }),
  };
}
