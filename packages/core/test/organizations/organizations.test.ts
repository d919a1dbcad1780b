/**
 * Organizations over HTTP on the in-memory adapter: create, list, change and delete; members and roles; the
 * last owner; the active organization in the session; every refusal by its type.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { getJson, organizationsApp, postJson } from "./helpers.js";

describe("an organization and its owner", () => {
  it("is created with its creator as owner, listed, read, renamed, and deleted with everything that is its", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    const created = await postJson(ada, "create", { name: "Acme", slug: "acme" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ organization: { name: "Acme", slug: "acme", domainJoin: "off", policy: {} }, role: "owner" });
    const id = created.body.organization.id as string;
    expect((await getJson(ada, "list")).body.organizations).toEqual([
      expect.objectContaining({ role: "owner", organization: expect.objectContaining({ id }) }),
    ]);
    expect((await getJson(ada, "get", { organizationId: id })).body).toMatchObject({ role: "owner", organization: { id, slug: "acme" } });
    expect((await postJson(ada, "update", { organizationId: id, name: "Acme Inc", slug: "acme-inc" })).body.organization).toMatchObject({
      name: "Acme Inc",
      slug: "acme-inc",
    });
    expect(app.events.map((event) => event.change)).toEqual(["created", "updated"]);
    expect(await postJson(ada, "delete", { organizationId: id })).toEqual({ status: 200, body: { deleted: true } });
    expect(app.orgs.organizations.size).toBe(0);
    expect(app.orgs.members.size).toBe(0);
    expect((await getJson(ada, "get", { organizationId: id })).status).toBe(404);
  });

  it("refuses a taken slug, a bad slug or name, a signed-out caller and a POST without its CSRF token", async () => {
    const app = organizationsApp();
    const ada = await app.signedUp("ada@example.com");
    await postJson(ada, "create", { name: "Acme", slug: "acme" });
    expect(await postJson(ada, "create", { name: "Other", slug: "acme" })).toEqual({ status: 409, body: { error: "SlugTaken" } });
    for (const slug of ["a", "-acme", "acme-", "ac--me", "ACME", "acme/x", "a".repeat(49)])
      expect(await postJson(ada, "create", { name: "X", slug })).toEqual({ status: 400, body: { error: "InvalidOrganization" } });
    expect((await postJson(ada, "create", { name: "   ", slug: "blank" })).body).toEqual({ error: "InvalidOrganization" });
    expect((await postJson(ada, "create", { name: "a\u0000b", slug: "nul" })).body).toEqual({ error: "InvalidOrganization" });
    const forged = await ada.send("/auth/organization/create", { form: { name: "Forged", slug: "forged" } });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: "MissingCSRF" });
    const stranger = app.browser();
    expect(await postJson(stranger, "create", { name: "Nobody", slug: "nobody" })).toEqual({
      status: 401,
      body: { error: "SessionRequired" },
    });
    expect(app.orgs.organizations.size).toBe(1);
  });

  it("limits how many organizations one user owns (maxPerUser)", async () => {
    const app = organizationsApp({ organizations: { maxPerUser: 2 } });
    const ada = await app.signedUp("ada@example.com");
    expect((await postJson(ada, "create", { name: "One", slug: "one" })).status).toBe(200);
    expect((await postJson(ada, "create", { name: "Two", slug: "two" })).status).toBe(200);
    expect(await postJson(ada, "create", { name: "Three", slug: "three" })).toEqual({ status: 429, body: { error: "OrganizationLimit" } });
  });
});

describe("the active organization", () => {
  it.each(["jwt", "database"] as const)(
    "lives with the %s session, with the member's role, and goes when the membership does",
    async (strategy) => {
      const app = organizationsApp({ session: { strategy } });
      const ada = await app.signedUp("ada@example.com");
      const bob = await app.signedUp("bob@example.com");
      const id = (await postJson(ada, "create", { name: "Acme", slug: "acme" })).body.organization.id as string;
      // Bob is not a member: he cannot make it his active organization.
      expect(await postJson(bob, "active", { organizationId: id })).toEqual({ status: 404, body: { error: "OrganizationNotFound" } });
      expect(await postJson(ada, "active", { organizationId: id })).toEqual({
        status: 200,
        body: { activeOrganizationId: id, role: "owner" },
      });
      expect(await ada.session()).toMatchObject({ activeOrganizationId: id, activeOrganizationRole: "owner" });
      expect((await getJson(ada, "permission", { permission: "organization:delete" })).body).toEqual({ allowed: true });
      // Cleared: no organization.
      expect((await postJson(ada, "active", {})).body).toEqual({ activeOrganizationId: null });
      expect(await ada.session()).not.toHaveProperty("activeOrganizationId");
      expect((await getJson(ada, "permission", { permission: "organization:read" })).body).toEqual({ allowed: false });
      // Set again, then the organization is deleted: the session shows none.
      await postJson(ada, "active", { organizationId: id });
      await postJson(ada, "delete", { organizationId: id });
      expect(await ada.session()).not.toHaveProperty("activeOrganizationId");
    },
  );
});

describe("auth.api of an instance (createAuth)", () => {
  it("has every organization operation (the lazy API lists them all)", async () => {
    const app = organizationsApp();
    const api = createAuth(app.config).api as unknown as Record<string, unknown>;
    const ada = await app.signedUp("ada@example.com");
    for (const name of ["createOrganization", "listOrganizations", "addDomain", "verifyDomain", "verifyDomains", "hasPermission"])
      expect({ name, type: typeof api[name] }).toEqual({ name, type: "function" });
    const request = new Request("http://localhost:3000/", { headers: { cookie: ada.jar.header() } });
    const made = await createAuth(app.config).api.createOrganization(request, { name: "Acme", slug: "acme" });
    expect(made).toMatchObject({ role: "owner", organization: { slug: "acme" } });
  });
});
