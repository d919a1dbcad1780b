/**
 * The organization operations through `auth.api`: the same declarations and checks as over HTTP, typed
 * input and data, a cross-site call refused; and a removal that takes effect on the member's next request.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { memoryOrganizations } from "../helpers/memory-organizations.js";
import { type Browser, getJson, organizationsApp, postJson } from "./helpers.js";

const requestOf = (browser: Browser, headers: Record<string, string> = {}) =>
  new Request(`${browser.origin}/app`, { headers: { cookie: browser.jar.header(), ...headers } });

describe("auth.api for organizations", () => {
  it("runs every operation with its typed input, and answers its data", async () => {
    const app = organizationsApp();
    const { api } = createAuth(app.config);
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.com");
    const { organization, role } = await api.createOrganization(requestOf(ada), { name: "Acme", slug: "acme" });
    expect(role).toBe("owner");
    const organizationId = organization.id;
    expect(await api.updateOrganization(requestOf(ada), { organizationId, name: "Acme 2", domainJoin: "suggest" })).toMatchObject({
      name: "Acme 2",
      domainJoin: "suggest",
    });
    expect((await api.listOrganizations(requestOf(ada))).organizations.map((listed) => listed.organization.id)).toEqual([organizationId]);
    const invitation = await api.inviteMember(requestOf(ada), { organizationId, email: "bob@example.com", role: "member" });
    expect((await api.listInvitations(requestOf(ada), { organizationId })).map((listed) => listed.id)).toEqual([invitation.id]);
    const token = app.linkTo("bob@example.com", "/auth/organization/invitation").searchParams.get("token") as string;
    expect(await api.acceptInvitation(requestOf(bob), { invitationId: invitation.id, token })).toEqual({ organizationId, role: "member" });
    expect((await api.listMembers(requestOf(ada), { organizationId })).map((member) => [member.email, member.role]).sort()).toEqual([
      ["ada@example.com", "owner"],
      ["bob@example.com", "member"],
    ]);
    expect(await api.updateMemberRole(requestOf(ada), { organizationId, userId: bob.userId, role: "admin" })).toMatchObject({
      role: "admin",
    });
    const { cookies, activeOrganizationId } = await api.setActiveOrganization(requestOf(bob), { organizationId });
    expect(activeOrganizationId).toBe(organizationId);
    // Database sessions on an adapter that keeps session records: the session's row holds it, no cookie does.
    expect(cookies).toEqual([]);
    expect(await api.hasPermission(requestOf(bob), { permission: "member:invite" })).toBe(true);
    expect(await api.hasPermission(requestOf(bob), { permission: "organization:delete" })).toBe(false);
    const domain = await api.addDomain(requestOf(ada), { organizationId, domain: "Acme.Example." });
    expect(domain).toMatchObject({ name: "acme.example", record: { name: "_authlib-challenge.acme.example", type: "TXT" } });
    expect((await api.listDomains(requestOf(ada), { organizationId })).map((listed) => listed.id)).toEqual([domain.id]);
    await api.removeDomain(requestOf(ada), { organizationId, domainId: domain.id });
    await api.removeMember(requestOf(ada), { organizationId, userId: bob.userId });
    expect(await api.hasPermission(requestOf(bob), { permission: "organization:read" })).toBe(false);
    await api.deleteOrganization(requestOf(ada), { organizationId });
    expect(app.events.map((event) => event.change)).toEqual([
      "created",
      "updated",
      "invited",
      "invitationAccepted",
      "roleChanged",
      "domainAdded",
      "domainRemoved",
      "memberRemoved",
      "deleted",
    ]);
  });

  it("refuses a call the browser says came from another site, and a bad input by its type", async () => {
    const app = organizationsApp();
    const { api } = createAuth(app.config);
    const ada = await app.signedUp("ada@example.com");
    await expect(
      api.createOrganization(requestOf(ada, { "sec-fetch-site": "cross-site" }), { name: "X", slug: "xx" }),
    ).rejects.toMatchObject({ type: "MissingCSRF" });
    await expect(api.createOrganization(requestOf(ada), { name: "X", slug: "X X" })).rejects.toMatchObject({ type: "InvalidOrganization" });
    await expect(api.getOrganization(requestOf(ada), { organizationId: "nope" })).rejects.toMatchObject({
      type: "OrganizationNotFound",
      status: 404,
    });
    expect(app.orgs.organizations.size).toBe(0);
  });
});

describe("revocation", () => {
  it.each(["jwt", "database"] as const)("a removed member's %s session loses the organization on its next request", async (strategy) => {
    const app = organizationsApp({ session: { strategy } });
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    await postJson(ada, "invite", { organizationId, email: "bob@example.com", role: "admin" });
    const link = app.linkTo("bob@example.com", "/auth/organization/invitation");
    await postJson(bob, "accept", { invitationId: link.searchParams.get("id") as string, token: link.searchParams.get("token") as string });
    await postJson(bob, "active", { organizationId });
    expect(await bob.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "admin" });
    // A role change shows on the next read; a removal ends access at once.
    await postJson(ada, "member-role", { organizationId, userId: bob.userId, role: "member" });
    expect(await bob.session()).toMatchObject({ activeOrganizationRole: "member" });
    await postJson(ada, "member-remove", { organizationId, userId: bob.userId });
    expect((await getJson(bob, "get", { organizationId })).status).toBe(404);
    expect((await getJson(bob, "members", { organizationId })).status).toBe(404);
    expect(await bob.session()).not.toHaveProperty("activeOrganizationId");
  });
});

describe("where a database session keeps its active organization", () => {
  const ASSURANCE = "authlib.session-assurance";
  /** Ada signed in, owner of Acme, made active; `sealed`: her sealed session cookie before and after. */
  const activate = async (app: ReturnType<typeof organizationsApp>) => {
    const ada = await app.signedUp("ada@example.com");
    const organizationId = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
    const before = ada.jar.get(ASSURANCE);
    expect((await postJson(ada, "active", { organizationId })).status).toBe(200);
    return { ada, organizationId, sealed: { before, after: ada.jar.get(ASSURANCE) } };
  };

  it("an adapter with session records: on the session's row, and the sealed cookie is not written", async () => {
    const app = organizationsApp({ session: { strategy: "database" } });
    const { ada, organizationId, sealed } = await activate(app);
    const row = app.memory.sessions.get(ada.jar.get("authlib.session-token") ?? "");
    expect(row?.activeOrganizationId).toBe(organizationId);
    // The sealed cookie (the sign-in's assurance) is not written again.
    expect(sealed.after).toBe(sealed.before);
    expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "owner" });
    // The row's value is shown only through the membership: an organization deleted shows none.
    await postJson(ada, "delete", { organizationId });
    expect(row?.activeOrganizationId).toBe(organizationId);
    expect(await ada.session()).not.toHaveProperty("activeOrganizationId");
    // Cleared on the row.
    expect((await postJson(ada, "active", {})).status).toBe(200);
    expect(app.memory.sessions.get(row?.sessionToken ?? "")?.activeOrganizationId).toBeNull();
  });

  it("an adapter without session records (an Auth.js one): in the session's sealed cookie, never on the row", async () => {
    const memory = memoryAdapter({ sessionRecords: false });
    const orgs = memoryOrganizations();
    const app = organizationsApp({ session: { strategy: "database" } }, { ...withVerificationTokens(memory.adapter), ...orgs.methods });
    const { ada, organizationId, sealed } = await activate(app);
    expect([...memory.sessions.values()].every((session) => session.activeOrganizationId === undefined)).toBe(true);
    expect(sealed.after).toBeTruthy();
    expect(sealed.after).not.toBe(sealed.before);
    expect(await ada.session()).toMatchObject({ activeOrganizationId: organizationId, activeOrganizationRole: "owner" });
  });
});
