/**
 * The organization methods of `HostedDbAdapter` (core's `OrganizationAdapterMethods`), on the tables of
 * migration 7.
 *
 * The rules are the database's: the slug's unique constraint rejects a second organization with a slug
 * (the insert or update throws the driver's unique violation; core then re-reads and answers `SlugTaken`),
 * the (organization, user) unique constraint a second membership, and foreign keys with ON DELETE CASCADE
 * delete an organization's members, invitations and domains with it, and a user's memberships with the
 * user, in the same statement. A record's `createdAt` is the one core gives (`meta.createdAt`).
 *
 * @module organizations
 */
import type {
  DomainJoin,
  Invitation,
  Member,
  Organization,
  OrganizationAdapterMethods,
  OrganizationDomain,
  SignInPolicy,
} from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { HostedDbError } from "./errors.js";
import type {
  AuthlibDomainRecord,
  AuthlibInvitationRecord,
  AuthlibMemberRecord,
  AuthlibOrganizationRecord,
  HostedDbFields,
  HostedDbJson,
} from "./schema.js";

type Methods<Keys extends keyof OrganizationAdapterMethods> = Pick<Required<OrganizationAdapterMethods>, Keys>;

/** Every organization method of `Adapter`, over `client`. */
export function organizationMethods(client: HostedDbClient): Required<OrganizationAdapterMethods> {
  return { ...organizationRecordMethods(client), ...memberMethods(client), ...invitationMethods(client), ...domainMethods(client) };
}

/** Organizations: a unique slug; deleting one deletes its members, invitations and domains (foreign keys). */
function organizationRecordMethods(
  client: HostedDbClient,
): Methods<"createOrganization" | "getOrganization" | "getOrganizationBySlug" | "updateOrganization" | "deleteOrganization"> {
  const organizations = client.db.authlib_organizations;
  return {
    async createOrganization({ id, name, slug, policy, domainJoin, createdAt }) {
      const record = await organizations.create({ id, name, slug, policy: toJson(policy), domainJoin }, { createdAt });
      return toOrganization(record);
    },
    async getOrganization(id) {
      const record = await organizations.read(id);
      return record && toOrganization(record);
    },
    async getOrganizationBySlug(slug) {
      const record = await organizations.findFirst({ slug });
      return record && toOrganization(record);
    },
    async updateOrganization({ id, name, slug, policy, domainJoin }) {
      const fields: Partial<HostedDbFields<AuthlibOrganizationRecord>> = {
        name,
        slug,
        policy: policy === undefined ? undefined : toJson(policy),
        domainJoin,
      };
      const record = await organizations.update(id, fields);
      if (!record) throw notFound("updateOrganization", "organization", id);
      return toOrganization(record);
    },
    async deleteOrganization(id) {
      await organizations.delete(id);
    },
  };
}

/** Memberships: one per (organization, user); they go with their organization or their user. */
function memberMethods(
  client: HostedDbClient,
): Methods<"createMember" | "getMember" | "listMembers" | "listMembershipsByUser" | "updateMember" | "deleteMember"> {
  const members = client.db.authlib_members;
  const key = (organizationId: string, userId: string) => ({ organization: { id: organizationId }, user: { id: userId } });
  return {
    async createMember({ id, organizationId, userId, role, createdAt }) {
      const record = await members.create({ id, ...key(organizationId, userId), role }, { createdAt });
      return toMember(record);
    },
    async getMember(organizationId, userId) {
      const record = await members.findFirst(key(organizationId, userId));
      return record && toMember(record);
    },
    async listMembers(organizationId) {
      return (await members.filter({ organization: { id: organizationId } })).map(toMember);
    },
    async listMembershipsByUser(userId) {
      return (await members.filter({ user: { id: userId } })).map(toMember);
    },
    async updateMember({ organizationId, userId, role }) {
      const [record] = await members.updateWhere(key(organizationId, userId), { role });
      if (!record) throw notFound("updateMember", "member", `${organizationId}/${userId}`);
      return toMember(record);
    },
    async deleteMember(organizationId, userId) {
      await members.deleteWhere(key(organizationId, userId));
    },
  };
}

/** Invitations: their token's hash, status and expiry. */
function invitationMethods(client: HostedDbClient): Methods<"createInvitation" | "getInvitation" | "listInvitations" | "updateInvitation"> {
  const invitations = client.db.authlib_invitations;
  return {
    async createInvitation({ id, organizationId, email, role, invitedBy, status, tokenHash, expires, createdAt }) {
      const record = await invitations.create(
        { id, organization: { id: organizationId }, email, role, invitedBy, status, tokenHash, expires },
        { createdAt },
      );
      return toInvitation(record);
    },
    async getInvitation(id) {
      const record = await invitations.read(id);
      return record && toInvitation(record);
    },
    async listInvitations(organizationId) {
      return (await invitations.filter({ organization: { id: organizationId } })).map(toInvitation);
    },
    async updateInvitation({ id, status }) {
      const record = await invitations.update(id, { status });
      if (!record) throw notFound("updateInvitation", "invitation", id);
      return toInvitation(record);
    },
  };
}

/** Claimed domains: several organizations may claim one name; `verifiedAt` is set while it is proven. */
function domainMethods(
  client: HostedDbClient,
): Methods<"createDomain" | "getDomain" | "listDomainsByName" | "listDomains" | "updateDomain" | "deleteDomain"> {
  const domains = client.db.authlib_domains;
  return {
    async createDomain({ id, organizationId, name, token, verifiedAt, createdAt }) {
      const record = await domains.create({ id, organization: { id: organizationId }, name, token, verifiedAt }, { createdAt });
      return toDomain(record);
    },
    async getDomain(id) {
      const record = await domains.read(id);
      return record && toDomain(record);
    },
    async listDomainsByName(name) {
      return (await domains.filter({ name })).map(toDomain);
    },
    async listDomains(organizationId) {
      const records = await domains.filter(organizationId === undefined ? {} : { organization: { id: organizationId } });
      return records.map(toDomain);
    },
    async updateDomain({ id, verifiedAt }) {
      const record = await domains.update(id, { verifiedAt });
      if (!record) throw notFound("updateDomain", "domain", id);
      return toDomain(record);
    },
    async deleteDomain(id) {
      await domains.delete(id);
    },
  };
}

function notFound(method: string, what: string, id: string): HostedDbError {
  return new HostedDbError("NotFound", `${method}: there is no ${what} ${JSON.stringify(id)}.`);
}

/** A policy as the `jsonb` column takes it (a plain JSON object: numbers, booleans and string lists). */
function toJson(policy: SignInPolicy): { [key: string]: HostedDbJson } {
  return JSON.parse(JSON.stringify(policy));
}

/** A field the adapter always writes (the columns are NOT NULL); absent only in a row from elsewhere. */
function required<T>(value: T | null | undefined, table: string, field: string): T {
  if (value === null || value === undefined) {
    throw new HostedDbError("UnexpectedData", `${table}.${field} is empty in a row the adapter needs it in.`);
  }
  return value;
}

const DOMAIN_JOINS: readonly string[] = ["auto", "suggest", "off"] satisfies DomainJoin[];
const STATUSES: readonly string[] = ["pending", "accepted", "revoked"] satisfies Invitation["status"][];

function oneOf<T extends string>(value: string, allowed: readonly string[], table: string, field: string): T {
  if (!allowed.includes(value))
    throw new HostedDbError("UnexpectedData", `${table}.${field} ${JSON.stringify(value)} is not one of ${allowed.join(", ")}.`);
  return value as T;
}

function toOrganization(record: AuthlibOrganizationRecord): Organization {
  const table = "authlib_organizations";
  return {
    id: record.id,
    name: required(record.name, table, "name"),
    slug: required(record.slug, table, "slug"),
    // The stored JSON is the policy core wrote (it validates a policy before it stores it).
    policy: (record.policy ?? {}) as SignInPolicy,
    domainJoin: oneOf<DomainJoin>(required(record.domainJoin, table, "domainJoin"), DOMAIN_JOINS, table, "domain_join"),
    createdAt: record.meta.createdAt,
  };
}

function toMember(record: AuthlibMemberRecord): Member {
  const table = "authlib_members";
  return {
    id: record.id,
    organizationId: required(record.organization, table, "organization").id,
    userId: required(record.user, table, "user").id,
    role: required(record.role, table, "role"),
    createdAt: record.meta.createdAt,
  };
}

function toInvitation(record: AuthlibInvitationRecord): Invitation {
  const table = "authlib_invitations";
  return {
    id: record.id,
    organizationId: required(record.organization, table, "organization").id,
    email: required(record.email, table, "email"),
    role: required(record.role, table, "role"),
    invitedBy: required(record.invitedBy, table, "invitedBy"),
    status: oneOf<Invitation["status"]>(required(record.status, table, "status"), STATUSES, table, "status"),
    tokenHash: required(record.tokenHash, table, "tokenHash"),
    expires: required(record.expires, table, "expires"),
    createdAt: record.meta.createdAt,
  };
}

function toDomain(record: AuthlibDomainRecord): OrganizationDomain {
  const table = "authlib_domains";
  return {
    id: record.id,
    organizationId: required(record.organization, table, "organization").id,
    name: required(record.name, table, "name"),
    token: required(record.token, table, "token"),
    verifiedAt: record.verifiedAt ?? null,
    createdAt: record.meta.createdAt,
  };
}
