/**
 * Who may do what, on every route: a member of A cannot read or change B (by id, slug, invitation id or
 * domain id); a member cannot raise their own role or act on a higher one; an admin cannot remove the
 * owner; the last owner stays; app roles declared with `defineRoles` are checked as declared.
 */
import { describe, expect, it } from "vitest";
import { defineRoles } from "../../src/kernel/features.js";
import { type Browser, getJson, organizationsApp, postJson } from "./helpers.js";

type App = ReturnType<typeof organizationsApp>;

/** Ada owns A with Bob (`role`) in it; Eve owns B. */
async function twoOrganizations(app: App, role = "member") {
  const ada = await app.signedUp("ada@example.com");
  const bob = await app.signedUp("bob@example.com");
  const eve = await app.signedUp("eve@example.com");
  const a = (await postJson(ada, "create", { name: "A", slug: "org-a" })).body.organization.id as string;
  const b = (await postJson(eve, "create", { name: "B", slug: "org-b" })).body.organization.id as string;
  await join(app, ada, bob, a, "bob@example.com", role);
  return { ada, bob, eve, a, b };
}

async function join(app: App, inviter: Browser, invitee: Browser, organizationId: string, email: string, role: string) {
  await postJson(inviter, "invite", { organizationId, email, role });
  const link = app.linkTo(email, "/auth/organization/invitation");
  const accepted = await postJson(invitee, "accept", {
    invitationId: link.searchParams.get("id") as string,
    token: link.searchParams.get("token") as string,
  });
  expect(accepted.status).toBe(200);
}

const NOT_FOUND = { status: 404, body: { error: "OrganizationNotFound" } };
const FORBIDDEN = { status: 403, body: { error: "OrganizationForbidden" } };

describe("a member of one organization and another's ids", () => {
  it("cannot read or change B by its id, its members, invitations or domains", async () => {
    const app = organizationsApp();
    const { bob, eve, b } = await twoOrganizations(app, "admin");
    await postJson(eve, "invite", { organizationId: b, email: "zed@example.com", role: "member" });
    const invitationOfB = app.linkTo("zed@example.com", "/auth/organization/invitation").searchParams.get("id") as string;
    const domainOfB = (await postJson(eve, "domain-add", { organizationId: b, domain: "b.example" })).body.domain.id as string;
    const eveId = eve.userId;
    const reads = ["get", "members", "invitations", "domains"];
    for (const path of reads) expect(await getJson(bob, path, { organizationId: b })).toEqual(NOT_FOUND);
    const changes: Array<[string, Record<string, string>]> = [
      ["update", { organizationId: b, name: "Mine now" }],
      ["delete", { organizationId: b }],
      ["member-role", { organizationId: b, userId: eveId, role: "member" }],
      ["member-remove", { organizationId: b, userId: eveId }],
      ["leave", { organizationId: b }],
      ["invite", { organizationId: b, email: "bob2@example.com", role: "owner" }],
      ["invitation-revoke", { organizationId: b, invitationId: invitationOfB }],
      ["domain-add", { organizationId: b, domain: "bob.example" }],
      ["domain-verify", { organizationId: b, domainId: domainOfB }],
      ["domain-remove", { organizationId: b, domainId: domainOfB }],
      ["active", { organizationId: b }],
    ];
    for (const [path, form] of changes) expect([path, await postJson(bob, path, form)]).toEqual([path, NOT_FOUND]);
    expect((await getJson(bob, "permission", { organizationId: b, permission: "organization:read" })).body).toEqual({ allowed: false });
    // The organization and its rows are as they were.
    expect(app.orgs.organizations.get(b)?.name).toBe("B");
    expect(app.orgs.invitations.get(invitationOfB)?.status).toBe("pending");
    expect(app.orgs.domains.has(domainOfB)).toBe(true);
  });

  it("cannot reach B's invitation or domain through A (an id of B's with A's id)", async () => {
    const app = organizationsApp();
    const { ada, eve, a, b } = await twoOrganizations(app);
    await postJson(eve, "invite", { organizationId: b, email: "zed@example.com", role: "member" });
    const invitationOfB = app.linkTo("zed@example.com", "/auth/organization/invitation").searchParams.get("id") as string;
    const domainOfB = (await postJson(eve, "domain-add", { organizationId: b, domain: "b.example" })).body.domain.id as string;
    expect(await postJson(ada, "invitation-revoke", { organizationId: a, invitationId: invitationOfB })).toEqual({
      status: 400,
      body: { error: "InvitationInvalid" },
    });
    expect(await postJson(ada, "domain-verify", { organizationId: a, domainId: domainOfB })).toEqual(NOT_FOUND);
    expect(await postJson(ada, "domain-remove", { organizationId: a, domainId: domainOfB })).toEqual(NOT_FOUND);
    // Eve is not a member of A: her id in A is no member.
    expect(await postJson(ada, "member-remove", { organizationId: a, userId: eve.userId })).toEqual(NOT_FOUND);
    expect(app.orgs.invitations.get(invitationOfB)?.status).toBe("pending");
    expect(app.orgs.domains.has(domainOfB)).toBe(true);
  });

  it("cannot take a slug to reach B: slugs are names, never keys of access", async () => {
    const app = organizationsApp();
    const { bob } = await twoOrganizations(app);
    expect(await getJson(bob, "get", { organizationId: "org-b" })).toEqual(NOT_FOUND);
    expect(await postJson(bob, "create", { name: "Copy", slug: "org-b" })).toEqual({ status: 409, body: { error: "SlugTaken" } });
  });
});

describe("roles", () => {
  it("a member cannot raise their own role, invite, remove, or change the organization", async () => {
    const app = organizationsApp();
    const { bob, a, ada } = await twoOrganizations(app);
    expect(await postJson(bob, "member-role", { organizationId: a, userId: bob.userId, role: "owner" })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "invite", { organizationId: a, email: "x@example.com", role: "member" })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "member-remove", { organizationId: a, userId: ada.userId })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "update", { organizationId: a, name: "Bob's" })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "delete", { organizationId: a })).toEqual(FORBIDDEN);
    expect((await getJson(bob, "get", { organizationId: a })).body.role).toBe("member");
  });

  it("an admin cannot remove, demote or make an owner, nor raise themselves; they may manage members", async () => {
    const app = organizationsApp();
    const { bob, a, ada } = await twoOrganizations(app, "admin");
    expect(await postJson(bob, "member-remove", { organizationId: a, userId: ada.userId })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "member-role", { organizationId: a, userId: ada.userId, role: "member" })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "member-role", { organizationId: a, userId: bob.userId, role: "owner" })).toEqual(FORBIDDEN);
    expect(await postJson(bob, "delete", { organizationId: a })).toEqual(FORBIDDEN);
    const carol = await app.signedUp("carol@example.com");
    await join(app, bob, carol, a, "carol@example.com", "member");
    expect((await postJson(bob, "member-role", { organizationId: a, userId: carol.userId, role: "admin" })).body.member).toMatchObject({
      role: "admin",
    });
    expect(await postJson(bob, "member-remove", { organizationId: a, userId: carol.userId })).toEqual({
      status: 200,
      body: { removed: true },
    });
  });

  it("the last owner cannot leave, step down or be removed; with a second owner they can", async () => {
    const app = organizationsApp();
    const { bob, a, ada } = await twoOrganizations(app, "admin");
    expect(await postJson(ada, "leave", { organizationId: a })).toEqual({ status: 409, body: { error: "LastOwner" } });
    expect(await postJson(ada, "member-role", { organizationId: a, userId: ada.userId, role: "admin" })).toEqual({
      status: 409,
      body: { error: "LastOwner" },
    });
    expect((await postJson(ada, "member-role", { organizationId: a, userId: bob.userId, role: "owner" })).status).toBe(200);
    // Two owners: one may step down, then leave.
    expect((await postJson(ada, "member-role", { organizationId: a, userId: ada.userId, role: "admin" })).status).toBe(200);
    expect(await postJson(ada, "leave", { organizationId: a })).toEqual({ status: 200, body: { left: true } });
    expect(await postJson(bob, "leave", { organizationId: a })).toEqual({ status: 409, body: { error: "LastOwner" } });
    expect(await postJson(bob, "member-remove", { organizationId: a, userId: bob.userId })).toEqual({
      status: 400,
      body: { error: "InvalidOrganization" },
    });
  });

  it("two owners leaving at once leave one owner (the race is put back)", async () => {
    const app = organizationsApp();
    const { bob, a, ada } = await twoOrganizations(app, "admin");
    await postJson(ada, "member-role", { organizationId: a, userId: bob.userId, role: "owner" });
    const answers = await Promise.all([postJson(ada, "leave", { organizationId: a }), postJson(bob, "leave", { organizationId: a })]);
    // Each leaves, or is refused as the last owner and put back: never an organization without one.
    const owners = [...app.orgs.members.values()].filter((member) => member.organizationId === a && member.role === "owner");
    expect(owners.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1);
  });

  it("the app's roles and permissions decide hasPermission and its own roles' reach", async () => {
    const roles = defineRoles({
      member: ["invoice:read"],
      admin: ["invoice:read", "invoice:approve"],
      accountant: ["invoice:read", "invoice:approve"],
    });
    const app = organizationsApp({ organizations: { roles } });
    const { bob, a, ada } = await twoOrganizations(app, "accountant");
    await postJson(bob, "active", { organizationId: a });
    expect((await getJson(bob, "permission", { permission: "invoice:approve" })).body).toEqual({ allowed: true });
    expect((await getJson(bob, "permission", { permission: "member:invite" })).body).toEqual({ allowed: false });
    expect((await getJson(ada, "permission", { organizationId: a, permission: "invoice:approve" })).body).toEqual({ allowed: true });
    expect(roles.can({ role: "member" }, "invoice:approve")).toBe(false);
    expect(roles.can({ role: "owner" }, "invoice:approve")).toBe(true);
    expect(roles.can(null, "invoice:read")).toBe(false);
    expect(roles.can({ role: "constructor" }, "invoice:read")).toBe(false);
    // An accountant has no member:update, so cannot change roles at all.
    expect(await postJson(bob, "member-role", { organizationId: a, userId: ada.userId, role: "member" })).toEqual(FORBIDDEN);
  });
});
