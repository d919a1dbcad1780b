/**
 * Each decision of the organization operations, one by one through `auth.api` on the in-memory adapter:
 * the refusals by type and by message, what an update leaves alone, whose organizations count toward the
 * limit, the last owner refused before anything changes, the owner put back after a race (simulated by the
 * store), one's own role, an unknown role, and joining by a proven address's domain (a resolver in memory).
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import type { Member } from "../../src/types/organizations.js";
import { type Browser, organizationsApp } from "./helpers.js";

type App = ReturnType<typeof organizationsApp>;

const requestOf = (browser: Browser) => new Request(`${browser.origin}/app`, { headers: { cookie: browser.jar.header() } });

/** Ada owns Acme; Bob is in it as `role` (set in the store). */
async function acme(app: App, role = "member") {
  const { api } = createAuth(app.config);
  const ada = await app.signedUp("ada@example.com");
  const bob = await app.signedUp("bob@example.com");
  const { organization } = await api.createOrganization(requestOf(ada), { name: "Acme", slug: "acme" });
  await app.orgs.methods.createMember({ organizationId: organization.id, userId: bob.userId, role, createdAt: new Date() });
  return { api, ada, bob, organizationId: organization.id };
}

const LAST_OWNER = { type: "LastOwner", message: "The last owner stays: make another member an owner first." };

const ownersOf = (app: App, organizationId: string) =>
  [...app.orgs.members.values()].filter((member) => member.organizationId === organizationId && member.role === "owner");

describe("the refusals say why", () => {
  it("no session, not a member, a role short of the permission, a policy not met", async () => {
    const app = organizationsApp();
    const { api, bob, organizationId } = await acme(app);
    await expect(api.listOrganizations(new Request("http://localhost:3000/app"))).rejects.toMatchObject({
      type: "SessionRequired",
      message: "Sign in first: the request has no session.",
    });
    const eve = await app.signedUp("eve@example.com");
    await expect(api.getOrganization(requestOf(eve), { organizationId })).rejects.toMatchObject({
      type: "OrganizationNotFound",
      message: "No organization of yours has this id.",
    });
    await expect(api.updateOrganization(requestOf(bob), { organizationId, name: "Bob's" })).rejects.toMatchObject({
      type: "OrganizationForbidden",
      message: 'Your role (member) does not grant "organization:update" here.',
      permission: "organization:update",
    });
    const organization = app.orgs.organizations.get(organizationId);
    if (!organization) throw new Error("no organization");
    organization.policy = { requireSecondFactor: true, allowedSignInMethods: ["sso"] };
    await expect(api.getOrganization(requestOf(bob), { organizationId })).rejects.toMatchObject({
      type: "OrganizationPolicy",
      message: "This organization asks for more than this session has (secondFactor, signInMethod): sign in again to continue.",
      missing: ["secondFactor", "signInMethod"],
    });
  });

  it("an adapter that answers another organization's or another user's membership is not trusted", async () => {
    const app = organizationsApp();
    const { api, ada, bob, organizationId } = await acme(app, "admin");
    const other = await api.createOrganization(requestOf(ada), { name: "Other", slug: "other" });
    const adapter = app.config.adapter as Required<NonNullable<typeof app.config.adapter>>;
    const real = adapter.getMember;
    // Asked for Bob in Other, it answers Bob's Acme row; asked for Eve in Acme, it answers Bob's.
    adapter.getMember = async () => (await real(organizationId, bob.userId)) as Member;
    const eve = await app.signedUp("eve@example.com");
    const { api: fresh } = createAuth(app.config);
    await expect(fresh.getOrganization(requestOf(bob), { organizationId: other.organization.id })).rejects.toMatchObject({
      type: "OrganizationNotFound",
    });
    await expect(fresh.getOrganization(requestOf(eve), { organizationId })).rejects.toMatchObject({ type: "OrganizationNotFound" });
    expect(await fresh.getOrganization(requestOf(bob), { organizationId })).toMatchObject({ role: "admin" });
  });

  it("a slug another organization has; the limit of organizations one owns, counting only those owned", async () => {
    const app = organizationsApp({ organizations: { maxPerUser: 1 } });
    const { api, ada, bob, organizationId } = await acme(app, "admin");
    // Bob is in Acme, not its owner: he may still create his one.
    const bobs = await api.createOrganization(requestOf(bob), { name: "Bob's", slug: "bobs" });
    expect(bobs.role).toBe("owner");
    await expect(api.createOrganization(requestOf(bob), { name: "More", slug: "more" })).rejects.toMatchObject({
      type: "OrganizationLimit",
      message: "You own as many organizations as this app allows.",
    });
    await expect(api.createOrganization(requestOf(ada), { name: "Acme", slug: "bobs" })).rejects.toMatchObject({
      type: "OrganizationLimit",
    });
    await expect(api.updateOrganization(requestOf(ada), { organizationId, slug: "bobs" })).rejects.toMatchObject({
      type: "SlugTaken",
      message: "Another organization has this slug.",
    });
    // Its own slug, given again, is no clash.
    expect(await api.updateOrganization(requestOf(ada), { organizationId, slug: "acme", name: "Acme 2" })).toMatchObject({
      slug: "acme",
      name: "Acme 2",
    });
  });
});

describe("an update", () => {
  it("changes what it is given and leaves the rest", async () => {
    const app = organizationsApp();
    const { api, ada, organizationId } = await acme(app);
    await api.updateOrganization(requestOf(ada), { organizationId, domainJoin: "suggest" });
    expect(app.orgs.organizations.get(organizationId)).toMatchObject({ name: "Acme", slug: "acme", domainJoin: "suggest", policy: {} });
    await api.updateOrganization(requestOf(ada), { organizationId, name: "Acme 2" });
    expect(app.orgs.organizations.get(organizationId)).toMatchObject({ name: "Acme 2", slug: "acme", domainJoin: "suggest" });
    await api.updateOrganization(requestOf(ada), { organizationId, slug: "acme-2" });
    expect(app.orgs.organizations.get(organizationId)).toMatchObject({ name: "Acme 2", slug: "acme-2", domainJoin: "suggest" });
  });
});

describe("roles", () => {
  it("an unknown role is refused; an admin cannot step down nor act above themselves, and is told which", async () => {
    const app = organizationsApp();
    const { api, ada, bob, organizationId } = await acme(app, "admin");
    await expect(api.updateMemberRole(requestOf(ada), { organizationId, userId: bob.userId, role: "nonsense" })).rejects.toMatchObject({
      type: "InvalidOrganization",
      message: 'There is no role "nonsense".',
    });
    await expect(api.updateMemberRole(requestOf(bob), { organizationId, userId: bob.userId, role: "member" })).rejects.toMatchObject({
      type: "OrganizationForbidden",
      message: "You cannot change your own role.",
    });
    await expect(api.updateMemberRole(requestOf(bob), { organizationId, userId: bob.userId, role: "owner" })).rejects.toMatchObject({
      type: "OrganizationForbidden",
      message: "A admin cannot act on a owner.",
      permission: "member:update",
    });
    await expect(api.removeMember(requestOf(bob), { organizationId, userId: ada.userId })).rejects.toMatchObject({
      type: "OrganizationForbidden",
      message: "A admin cannot act on a owner.",
      permission: "member:remove",
    });
    expect(app.orgs.members.get(`${organizationId}/${bob.userId}`)?.role).toBe("admin");
  });

  it("the last owner is refused before anything changes: the same membership stays", async () => {
    const app = organizationsApp();
    const { api, ada, organizationId } = await acme(app, "admin");
    const before = structuredClone(app.orgs.members.get(`${organizationId}/${ada.userId}`));
    await expect(api.leaveOrganization(requestOf(ada), { organizationId })).rejects.toMatchObject(LAST_OWNER);
    await expect(api.updateMemberRole(requestOf(ada), { organizationId, userId: ada.userId, role: "admin" })).rejects.toMatchObject(
      LAST_OWNER,
    );
    expect(app.orgs.members.get(`${organizationId}/${ada.userId}`)).toEqual(before);
    expect(app.events.map((event) => event.change)).toEqual(["created"]);
  });
});

describe("the owner put back after a race", () => {
  /** Ada and Bob own Acme, Carol is a member; `during` runs inside the store's `method`, once. */
  async function race(method: "deleteMember" | "updateMember", during: (app: App, organizationId: string, bob: string) => void) {
    const app = organizationsApp();
    const adapter = app.config.adapter as Required<NonNullable<typeof app.config.adapter>>;
    let armed: (() => void) | undefined;
    const real = adapter[method] as (...args: unknown[]) => unknown;
    (adapter as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const result = await real(...args);
      const hook = armed;
      armed = undefined;
      hook?.();
      return result;
    };
    const { api, ada, bob, organizationId } = await acme(app, "owner");
    const carol = await app.signedUp("carol@example.com");
    await app.orgs.methods.createMember({ organizationId, userId: carol.userId, role: "member", createdAt: new Date() });
    armed = () => during(app, organizationId, bob.userId);
    return { app, api, ada, organizationId };
  }

  it("Bob leaves while Ada leaves: Ada is an owner again, and refused", async () => {
    const { app, api, ada, organizationId } = await race("deleteMember", (app, organizationId, bob) =>
      app.orgs.members.delete(`${organizationId}/${bob}`),
    );
    await expect(api.leaveOrganization(requestOf(ada), { organizationId })).rejects.toMatchObject(LAST_OWNER);
    expect(ownersOf(app, organizationId).map((member) => member.userId)).toEqual([ada.userId]);
    expect(app.events.some((event) => event.change === "memberLeft")).toBe(false);
  });

  it("Bob is demoted while Ada steps down: Ada is an owner again, and refused", async () => {
    const { app, api, ada, organizationId } = await race("updateMember", (app, organizationId, bob) => {
      const member = app.orgs.members.get(`${organizationId}/${bob}`);
      if (member) member.role = "admin";
    });
    await expect(api.updateMemberRole(requestOf(ada), { organizationId, userId: ada.userId, role: "admin" })).rejects.toMatchObject(
      LAST_OWNER,
    );
    expect(ownersOf(app, organizationId).map((member) => member.userId)).toEqual([ada.userId]);
    expect(app.events.some((event) => event.change === "roleChanged")).toBe(false);
  });
});

describe("joining by a proven address's domain", () => {
  /** Acme (Ada's) with example.com proven, joining as `domainJoin` says; TXT answers from memory. */
  async function acmeAt(domainJoin: "auto" | "suggest") {
    const records = new Map<string, string[][]>();
    const app = organizationsApp({ organizations: { resolveTxt: async (name) => records.get(name) ?? [] } });
    const { api } = createAuth(app.config);
    const ada = await app.signedUp("ada@example.org");
    const { organization } = await api.createOrganization(requestOf(ada), { name: "Acme", slug: "acme" });
    const organizationId = organization.id;
    const domain = await api.addDomain(requestOf(ada), { organizationId, domain: "example.com" });
    records.set(domain.record.name, [[domain.token]]);
    await api.verifyDomain(requestOf(ada), { organizationId, domainId: domain.id });
    await api.updateOrganization(requestOf(ada), { organizationId, domainJoin });
    app.events.length = 0;
    return { app, api, ada, organizationId };
  }

  it('"auto": listing joins as a member, once, with its event', async () => {
    const { app, api, organizationId } = await acmeAt("auto");
    const carol = await app.signedUp("carol@example.com");
    const listed = await api.listOrganizations(requestOf(carol));
    expect(listed.organizations).toEqual([{ organization: expect.objectContaining({ id: organizationId }), role: "member" }]);
    expect(listed.suggested).toEqual([]);
    expect(await api.listOrganizations(requestOf(carol))).toEqual(listed);
    expect(app.events).toEqual([{ organizationId, actorId: carol.userId, change: "memberAdded", targetId: carol.userId, role: "member" }]);
  });

  it('"suggest": listed, not joined; joining makes a member; another organization or address is refused', async () => {
    const { app, api, ada, organizationId } = await acmeAt("suggest");
    const carol = await app.signedUp("carol@example.com");
    const listed = await api.listOrganizations(requestOf(carol));
    expect(listed).toEqual({ organizations: [], suggested: [expect.objectContaining({ id: organizationId })] });
    expect(await app.orgs.methods.getMember(organizationId, carol.userId)).toBeNull();
    const other = await api.createOrganization(requestOf(ada), { name: "Other", slug: "other" });
    const refused = { type: "OrganizationNotFound", message: "No organization offers to let you join by your address." };
    await expect(api.joinOrganization(requestOf(carol), { organizationId: other.organization.id })).rejects.toMatchObject(refused);
    expect(await api.joinOrganization(requestOf(carol), { organizationId })).toEqual({ organizationId, role: "member" });
    expect(await app.orgs.methods.getMember(organizationId, carol.userId)).toMatchObject({ role: "member" });
    expect(app.events.filter((event) => event.change === "memberAdded")).toEqual([
      { organizationId, actorId: carol.userId, change: "memberAdded", targetId: carol.userId, role: "member" },
    ]);
    // A member already: listed as one, suggested nothing, and joining again keeps the role.
    expect(await api.listOrganizations(requestOf(carol))).toEqual({
      organizations: [{ organization: expect.objectContaining({ id: organizationId }), role: "member" }],
      suggested: [],
    });
    expect(await api.joinOrganization(requestOf(ada), { organizationId: other.organization.id }).catch((error) => error.type)).toBe(
      "OrganizationNotFound",
    );
    const dave = await app.signedUp("dave@example.net");
    await expect(api.joinOrganization(requestOf(dave), { organizationId })).rejects.toMatchObject(refused);
  });
});
