/**
 * The conformance suite of the organization methods of an adapter (`OrganizationAdapterMethods`), as vitest
 * tests: one standard for every store, run on the in-memory methods (test/organizations/organization-store.test.ts)
 * and on the hosted-db adapter on PGlite and PostgreSQL (packages/hosted-db-adapter/test/organizations.test.ts).
 *
 * The rules a store keeps: a unique slug (a second one throws, on create and on update); one membership per
 * (organization, user); deleting an organization deletes its members, invitations and domains; "not found" is
 * `null`; dates round-trip as `Date` to the millisecond and the policy as the JSON it was. Every test makes its
 * own rows with fresh slugs and ids, so the tests may share one store and run in any order.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Invitation, Member, Organization, OrganizationAdapterMethods, OrganizationDomain } from "../../src/types/organizations.js";

type Awaitable<T> = T | PromiseLike<T>;
type Store = Required<OrganizationAdapterMethods>;

export interface OrganizationStoreSuiteOptions {
  /** Names the `describe` block. */
  name: string;
  /** The methods under test; called after `setup`. */
  store: () => Store;
  /** A user the store can hold memberships of (a database checks the foreign key): its id. */
  newUser: () => Awaitable<string>;
  /** Deletes a user through the adapter; when given, the suite checks that their memberships go with them. */
  deleteUser?: (id: string) => Awaitable<void>;
  setup?: () => Awaitable<void>;
  teardown?: () => Awaitable<void>;
}

/** A date `offset` ms from now with a non-zero millisecond part, to prove millisecond round trips. */
function dateIn(offset: number): Date {
  return new Date(Math.floor((Date.now() + offset) / 1000) * 1000 + 123);
}

const slug = () => `org-${randomUUID().slice(0, 13)}`;

function newOrganization(overrides: Partial<Organization> = {}): Omit<Organization, "id"> {
  return {
    name: "Acme",
    slug: slug(),
    policy: { requireSecondFactor: true, allowedSignInMethods: ["passkey", "sso"], sessionMaxAge: 3600 },
    domainJoin: "suggest",
    createdAt: dateIn(-60_000),
    ...overrides,
  };
}

const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));

export function runOrganizationStoreSuite(options: OrganizationStoreSuiteOptions): void {
  describe(options.name, () => {
    let store: Store;
    beforeAll(async () => {
      await options.setup?.();
      store = options.store();
    });
    afterAll(async () => {
      await options.teardown?.();
    });
    const context = {
      store: () => store,
      newUser: async () => options.newUser(),
      deleteUser: options.deleteUser,
    };
    organizationCases(context);
    memberCases(context);
    invitationAndDomainCases(context);
    deletionCases(context);
  });
}

interface SuiteContext {
  store: () => Store;
  newUser: () => Promise<string>;
  deleteUser?: (id: string) => Awaitable<void>;
}

function organizationCases({ store }: SuiteContext): void {
  it("creates an organization and reads it back by id and by slug: dates and the JSON policy round-trip", async () => {
    const given = newOrganization();
    const created = await store().createOrganization(given);
    expect(created).toEqual({ ...given, id: expect.any(String) });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(await store().getOrganization(created.id)).toEqual(created);
    expect(await store().getOrganizationBySlug(given.slug)).toEqual(created);
    const empty = await store().createOrganization(newOrganization({ policy: {}, domainJoin: "off" }));
    expect(await store().getOrganization(empty.id)).toMatchObject({ policy: {}, domainJoin: "off" });
  });

  it("keeps an id it is given, and answers null for what is not there", async () => {
    const id = randomUUID();
    expect((await store().createOrganization({ ...newOrganization(), id })).id).toBe(id);
    expect(await store().getOrganization(randomUUID())).toBeNull();
    expect(await store().getOrganizationBySlug(slug())).toBeNull();
  });

  it("rejects a second organization with a taken slug, on create and on update", async () => {
    const first = await store().createOrganization(newOrganization());
    await expect(Promise.resolve().then(() => store().createOrganization(newOrganization({ slug: first.slug })))).rejects.toThrow();
    const second = await store().createOrganization(newOrganization());
    await expect(Promise.resolve().then(() => store().updateOrganization({ id: second.id, slug: first.slug }))).rejects.toThrow();
    expect(await store().getOrganization(second.id)).toEqual(second);
    // Its own slug is no clash.
    expect(await store().updateOrganization({ id: second.id, slug: second.slug })).toEqual(second);
  });

  it("updates only the fields given; the policy is replaced as a whole", async () => {
    const created = await store().createOrganization(newOrganization());
    const renamed = await store().updateOrganization({ id: created.id, name: "Acme Inc", domainJoin: "auto" });
    expect(renamed).toEqual({ ...created, name: "Acme Inc", domainJoin: "auto" });
    const newSlug = slug();
    const changed = await store().updateOrganization({ id: created.id, slug: newSlug, policy: { sessionMaxAge: 120 } });
    expect(changed).toEqual({ ...renamed, slug: newSlug, policy: { sessionMaxAge: 120 } });
    expect(await store().getOrganizationBySlug(newSlug)).toEqual(changed);
    expect(await store().getOrganizationBySlug(created.slug)).toBeNull();
    await expect(Promise.resolve().then(() => store().updateOrganization({ id: randomUUID(), name: "Ghost" }))).rejects.toThrow();
  });
}

function memberCases({ store, newUser }: SuiteContext): void {
  it("keeps one membership per user and organization; a user may belong to several organizations", async () => {
    const [acme, globex] = [await store().createOrganization(newOrganization()), await store().createOrganization(newOrganization())];
    const ada = await newUser();
    const createdAt = dateIn(-1000);
    const member = await store().createMember({ organizationId: acme.id, userId: ada, role: "owner", createdAt });
    expect(member).toEqual({ id: expect.any(String), organizationId: acme.id, userId: ada, role: "owner", createdAt });
    const again = { organizationId: acme.id, userId: ada, role: "member", createdAt };
    await expect(Promise.resolve().then(() => store().createMember(again))).rejects.toThrow();
    expect(await store().getMember(acme.id, ada)).toEqual(member);
    const other = await store().createMember({ organizationId: globex.id, userId: ada, role: "member", createdAt });
    expect(byId(await store().listMembershipsByUser(ada))).toEqual(byId([member, other]));
    expect(await store().listMembers(acme.id)).toEqual([member]);
  });

  it("lists, changes the role of and removes members; null and [] for what is not there", async () => {
    const acme = await store().createOrganization(newOrganization());
    const [ada, bob] = [await newUser(), await newUser()];
    const owner = await store().createMember({ organizationId: acme.id, userId: ada, role: "owner", createdAt: dateIn(-2000) });
    const member = await store().createMember({ organizationId: acme.id, userId: bob, role: "member", createdAt: dateIn(-1000) });
    expect(byId(await store().listMembers(acme.id))).toEqual(byId([owner, member]));
    const promoted = await store().updateMember({ organizationId: acme.id, userId: bob, role: "admin" });
    expect(promoted).toEqual({ ...member, role: "admin" });
    expect(await store().getMember(acme.id, bob)).toEqual(promoted);
    await store().deleteMember(acme.id, bob);
    expect(await store().getMember(acme.id, bob)).toBeNull();
    expect(await store().listMembers(acme.id)).toEqual([owner]);
    expect(await store().listMembershipsByUser(bob)).toEqual([]);
    expect(await store().listMembers(randomUUID())).toEqual([]);
    const missing = { organizationId: acme.id, userId: bob, role: "admin" };
    await expect(Promise.resolve().then(() => store().updateMember(missing))).rejects.toThrow();
    // Removing a membership that is not there is no error.
    await store().deleteMember(acme.id, bob);
  });
}

function newInvitation(organizationId: string, invitedBy: string): Omit<Invitation, "id"> {
  return {
    organizationId,
    email: `invitee-${randomUUID()}@example.com`,
    role: "admin",
    invitedBy,
    status: "pending",
    tokenHash: randomUUID().replaceAll("-", "").repeat(2),
    expires: dateIn(7 * 86_400_000),
    createdAt: dateIn(-500),
  };
}

function newDomain(organizationId: string, name = `${randomUUID().slice(0, 8)}.example.com`): Omit<OrganizationDomain, "id"> {
  return { organizationId, name, token: `authlib-${randomUUID()}`, verifiedAt: null, createdAt: dateIn(-500) };
}

function invitationAndDomainCases({ store, newUser }: SuiteContext): void {
  it("keeps invitations: read, listed by organization, their status changed", async () => {
    const acme = await store().createOrganization(newOrganization());
    const ada = await newUser();
    const given = newInvitation(acme.id, ada);
    const invitation = await store().createInvitation(given);
    expect(invitation).toEqual({ ...given, id: expect.any(String) });
    expect(await store().getInvitation(invitation.id)).toEqual(invitation);
    const second = await store().createInvitation(newInvitation(acme.id, ada));
    expect(byId(await store().listInvitations(acme.id))).toEqual(byId([invitation, second]));
    expect(await store().updateInvitation({ id: invitation.id, status: "accepted" })).toEqual({ ...invitation, status: "accepted" });
    expect(await store().updateInvitation({ id: second.id, status: "revoked" })).toMatchObject({ status: "revoked" });
    expect(await store().getInvitation(randomUUID())).toBeNull();
    expect(await store().listInvitations(randomUUID())).toEqual([]);
    await expect(Promise.resolve().then(() => store().updateInvitation({ id: randomUUID(), status: "revoked" }))).rejects.toThrow();
  });

  it("keeps domains: several organizations may claim one name; verified and unverified; removed", async () => {
    const [acme, globex] = [await store().createOrganization(newOrganization()), await store().createOrganization(newOrganization())];
    const name = `${randomUUID().slice(0, 8)}.example.com`;
    const claim = await store().createDomain(newDomain(acme.id, name));
    const rival = await store().createDomain(newDomain(globex.id, name));
    const other = await store().createDomain(newDomain(acme.id));
    expect(claim).toMatchObject({ organizationId: acme.id, name, verifiedAt: null });
    expect(await store().getDomain(claim.id)).toEqual(claim);
    expect(byId(await store().listDomainsByName(name))).toEqual(byId([claim, rival]));
    expect(byId(await store().listDomains(acme.id))).toEqual(byId([claim, other]));
    const verifiedAt = dateIn(0);
    expect(await store().updateDomain({ id: claim.id, verifiedAt })).toEqual({ ...claim, verifiedAt });
    expect(await store().getDomain(claim.id)).toEqual({ ...claim, verifiedAt });
    expect(await store().updateDomain({ id: claim.id, verifiedAt: null })).toEqual(claim);
    await store().deleteDomain(other.id);
    expect(await store().getDomain(other.id)).toBeNull();
    expect(await store().listDomains(acme.id)).toEqual([claim]);
    expect(await store().listDomainsByName(`${randomUUID()}.example.com`)).toEqual([]);
    await expect(Promise.resolve().then(() => store().updateDomain({ id: randomUUID(), verifiedAt }))).rejects.toThrow();
  });

  it("lists every organization's domains when listDomains has no id", async () => {
    const [acme, globex] = [await store().createOrganization(newOrganization()), await store().createOrganization(newOrganization())];
    const mine = await store().createDomain(newDomain(acme.id));
    const theirs = await store().createDomain(newDomain(globex.id));
    const all = await store().listDomains();
    expect(all).toEqual(expect.arrayContaining([mine, theirs]));
    expect(new Set(all.map((domain) => domain.organizationId)).size).toBeGreaterThanOrEqual(2);
  });
}

function deletionCases({ store, newUser, deleteUser }: SuiteContext): void {
  it("deletes an organization with its members, invitations and domains, and nothing of another", async () => {
    const [acme, globex] = [await store().createOrganization(newOrganization()), await store().createOrganization(newOrganization())];
    const ada = await newUser();
    const members: Member[] = [];
    for (const organization of [acme, globex])
      members.push(await store().createMember({ organizationId: organization.id, userId: ada, role: "owner", createdAt: dateIn(0) }));
    const invitation = await store().createInvitation(newInvitation(acme.id, ada));
    const kept = await store().createInvitation(newInvitation(globex.id, ada));
    const domain = await store().createDomain(newDomain(acme.id));
    const keptDomain = await store().createDomain(newDomain(globex.id));
    await store().deleteOrganization(acme.id);
    expect(await store().getOrganization(acme.id)).toBeNull();
    expect(await store().getOrganizationBySlug(acme.slug)).toBeNull();
    expect(await store().getMember(acme.id, ada)).toBeNull();
    expect(await store().listMembers(acme.id)).toEqual([]);
    expect(await store().getInvitation(invitation.id)).toBeNull();
    expect(await store().listInvitations(acme.id)).toEqual([]);
    expect(await store().getDomain(domain.id)).toBeNull();
    expect(await store().listDomains(acme.id)).toEqual([]);
    expect(await store().listMembershipsByUser(ada)).toEqual([members[1]]);
    expect(await store().getInvitation(kept.id)).toEqual(kept);
    expect(await store().getDomain(keptDomain.id)).toEqual(keptDomain);
    // The slug is free again; deleting what is not there is no error.
    expect((await store().createOrganization(newOrganization({ slug: acme.slug }))).slug).toBe(acme.slug);
    await store().deleteOrganization(acme.id);
    await store().deleteDomain(domain.id);
  });

  // Only a store with users (a database) deletes a user; the in-memory store has none to delete.
  if (deleteUser)
    it("deletes a user's memberships with the user", async () => {
      const acme = await store().createOrganization(newOrganization());
      const [ada, bob] = [await newUser(), await newUser()];
      await store().createMember({ organizationId: acme.id, userId: ada, role: "owner", createdAt: dateIn(0) });
      const staying = await store().createMember({ organizationId: acme.id, userId: bob, role: "member", createdAt: dateIn(0) });
      await deleteUser?.(ada);
      expect(await store().getMember(acme.id, ada)).toBeNull();
      expect(await store().listMembershipsByUser(ada)).toEqual([]);
      expect(await store().listMembers(acme.id)).toEqual([staying]);
      expect(await store().getOrganization(acme.id)).toMatchObject({ id: acme.id });
    });
}
