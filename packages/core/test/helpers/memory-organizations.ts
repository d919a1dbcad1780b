/**
 * The organization methods of an adapter (`OrganizationAdapterMethods`) on plain maps, for the tests that
 * drive organizations many times: the rules a database keeps are kept here too (a unique slug, one
 * membership per user and organization, deleting an organization deletes what is its), and rows are handed
 * out as copies. Web Crypto's `randomUUID` (no `node:` import): the Qwik fixture app bundles it for the browser too. The hosted-db adapter is tested against the same operations on PGlite and PostgreSQL.
 */
import type { Invitation, Member, Organization, OrganizationAdapterMethods, OrganizationDomain } from "../../src/types/organizations.js";

export interface MemoryOrganizations {
  methods: Required<OrganizationAdapterMethods>;
  organizations: Map<string, Organization>;
  members: Map<string, Member>;
  invitations: Map<string, Invitation>;
  domains: Map<string, OrganizationDomain>;
}

const copy = <T>(value: T): T => structuredClone(value);

export function memoryOrganizations(): MemoryOrganizations {
  const organizations = new Map<string, Organization>();
  const members = new Map<string, Member>();
  const invitations = new Map<string, Invitation>();
  const domains = new Map<string, OrganizationDomain>();
  const memberKey = (organizationId: string, userId: string) => `${organizationId}/${userId}`;
  const methods: Required<OrganizationAdapterMethods> = {
    createOrganization(given) {
      if ([...organizations.values()].some((other) => other.slug === given.slug)) throw new Error("unique violation: slug");
      const organization = { ...copy(given), id: given.id ?? crypto.randomUUID() };
      organizations.set(organization.id, organization);
      return copy(organization);
    },
    getOrganization: (id) => copy(organizations.get(id) ?? null),
    getOrganizationBySlug: (slug) => copy([...organizations.values()].find((organization) => organization.slug === slug) ?? null),
    updateOrganization(changes) {
      const found = organizations.get(changes.id);
      if (!found) throw new Error("no such organization");
      const clash =
        changes.slug !== undefined && [...organizations.values()].some((other) => other.slug === changes.slug && other.id !== changes.id);
      if (clash) throw new Error("unique violation: slug");
      const updated = { ...found, ...copy(changes) };
      organizations.set(updated.id, updated);
      return copy(updated);
    },
    deleteOrganization(id) {
      organizations.delete(id);
      for (const [key, member] of members) if (member.organizationId === id) members.delete(key);
      for (const [key, invitation] of invitations) if (invitation.organizationId === id) invitations.delete(key);
      for (const [key, domain] of domains) if (domain.organizationId === id) domains.delete(key);
    },
    createMember(given) {
      const key = memberKey(given.organizationId, given.userId);
      if (members.has(key)) throw new Error("unique violation: member");
      const member = { ...copy(given), id: given.id ?? crypto.randomUUID() };
      members.set(key, member);
      return copy(member);
    },
    getMember: (organizationId, userId) => copy(members.get(memberKey(organizationId, userId)) ?? null),
    listMembers: (organizationId) => copy([...members.values()].filter((member) => member.organizationId === organizationId)),
    listMembershipsByUser: (userId) => copy([...members.values()].filter((member) => member.userId === userId)),
    updateMember({ organizationId, userId, role }) {
      const found = members.get(memberKey(organizationId, userId));
      if (!found) throw new Error("no such member");
      found.role = role;
      return copy(found);
    },
    deleteMember(organizationId, userId) {
      members.delete(memberKey(organizationId, userId));
    },
    createInvitation(given) {
      const invitation = { ...copy(given), id: given.id ?? crypto.randomUUID() };
      invitations.set(invitation.id, invitation);
      return copy(invitation);
    },
    getInvitation: (id) => copy(invitations.get(id) ?? null),
    listInvitations: (organizationId) =>
      copy([...invitations.values()].filter((invitation) => invitation.organizationId === organizationId)),
    updateInvitation({ id, status }) {
      const found = invitations.get(id);
      if (!found) throw new Error("no such invitation");
      found.status = status;
      return copy(found);
    },
    createDomain(given) {
      const domain = { ...copy(given), id: given.id ?? crypto.randomUUID() };
      domains.set(domain.id, domain);
      return copy(domain);
    },
    getDomain: (id) => copy(domains.get(id) ?? null),
    listDomainsByName: (name) => copy([...domains.values()].filter((domain) => domain.name === name)),
    listDomains: (organizationId) =>
      copy([...domains.values()].filter((domain) => organizationId === undefined || domain.organizationId === organizationId)),
    updateDomain({ id, verifiedAt }) {
      const found = domains.get(id);
      if (!found) throw new Error("no such domain");
      found.verifiedAt = verifiedAt;
      return copy(found);
    },
    deleteDomain(id) {
      domains.delete(id);
    },
  };
  return { methods, organizations, members, invitations, domains };
}
