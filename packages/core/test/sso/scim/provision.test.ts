/**
 * What a SCIM user is: a core user linked only by an address on a domain the organization proved (else a
 * new user, whose address is marked verified only on a proven domain, and who never takes another person's
 * address), a membership of the token's organization, and the role its groups give (a group named as a
 * declared role; the widest wins; never `owner`). Every change is an audit row.
 */
import { describe, expect, it } from "vitest";
import { defineRoles } from "../../../src/features/organizations/public.js";
import { expectScimError, type Json, scimApp } from "./helpers.js";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

async function setUp(roles?: ReturnType<typeof defineRoles>) {
  const app = scimApp(roles ? { organizations: { roles } } : {});
  const ada = await app.signedUp("ada@proven.example");
  const organizationId = await app.organization(ada, "acme", ["proven.example"]);
  // Claimed but never proven.
  await app.orgs.methods.createDomain({ organizationId, name: "claimed.example", token: "t", verifiedAt: null, createdAt: new Date() });
  const scim = app.client(await app.token(ada, organizationId));
  return { app, ada, organizationId, scim };
}

const userOf = (app: ReturnType<typeof scimApp>, scimId: string) => app.scim.users.get(scimId)?.userId as string;

describe("the core user of a new directory user", () => {
  it("an existing account on a proven domain is linked", async () => {
    const { app, scim } = await setUp();
    const bob = await app.signedUp("bob@proven.example");
    const created = await scim("POST", "/Users", { schemas: [USER], userName: "Bob@Proven.example" });
    expect(userOf(app, created.body.id)).toBe(bob.userId);
    expect(app.audit.find((row) => row.type === "scimUserCreated")?.detail).toContain("linked=true");
  });

  it("an existing account on a claimed but unproven domain is never linked: a new user without the address is made", async () => {
    const { app, organizationId, scim } = await setUp();
    const mallory = await app.signedUp("mallory@claimed.example");
    const created = await scim("POST", "/Users", { schemas: [USER], userName: "mallory@claimed.example" });
    expect(created.status).toBe(201);
    const made = userOf(app, created.body.id);
    expect(made).not.toBe(mallory.userId);
    expect(await app.store.getUser?.(made)).toMatchObject({ email: null, emailVerified: null });
    expect(await app.store.getMember?.(organizationId, mallory.userId)).toBeNull();
    expect(await app.store.getMember?.(organizationId, made)).toMatchObject({ role: "member" });
  });

  it("a new address on a proven domain is made verified; on an unproven one, unverified", async () => {
    const { app, scim } = await setUp();
    const proven = await scim("POST", "/Users", {
      schemas: [USER],
      userName: "new@proven.example",
      name: { givenName: "New", familyName: "Person" },
    });
    expect(await app.store.getUser?.(userOf(app, proven.body.id))).toMatchObject({
      email: "new@proven.example",
      name: "New Person",
      emailVerified: expect.any(Date),
    });
    const other = await scim("POST", "/Users", {
      schemas: [USER],
      userName: "x1",
      emails: [{ value: "someone@elsewhere.example", type: "work" }],
    });
    expect(await app.store.getUser?.(userOf(app, other.body.id))).toMatchObject({
      email: "someone@elsewhere.example",
      emailVerified: null,
    });
    const none = await scim("POST", "/Users", { schemas: [USER], userName: "no-address" });
    expect(await app.store.getUser?.(userOf(app, none.body.id))).toMatchObject({ email: null, emailVerified: null });
  });

  it("the primary address wins over the work one and the userName", async () => {
    const { app, scim } = await setUp();
    const created = await scim("POST", "/Users", {
      schemas: [USER],
      userName: "login@proven.example",
      emails: [
        { value: "work@proven.example", type: "work" },
        { value: "main@proven.example", primary: true },
      ],
    });
    expect((await app.store.getUser?.(userOf(app, created.body.id)))?.email).toBe("main@proven.example");
  });

  it("the same person twice in one directory is a conflict", async () => {
    const { app, scim } = await setUp();
    await app.signedUp("dup@proven.example");
    await scim("POST", "/Users", { schemas: [USER], userName: "dup@proven.example" });
    expectScimError(
      await scim("POST", "/Users", { schemas: [USER], userName: "other-name", emails: [{ value: "dup@proven.example" }] }),
      409,
      "uniqueness",
    );
  });

  it("a body that is not a user is refused with a named SCIM error", async () => {
    const { app, scim } = await setUp();
    const before = app.scim.users.size;
    expectScimError(await scim("POST", "/Users", { userName: "x" }), 400, "invalidSyntax");
    expectScimError(await scim("POST", "/Users", { schemas: [USER] }), 400, "invalidValue");
    expectScimError(await scim("POST", "/Users", { schemas: [USER], userName: "x", active: "maybe" }), 400, "invalidValue");
    expectScimError(await scim("POST", "/Users", { schemas: [USER], userName: "x", emails: "a@b.c" }), 400, "invalidValue");
    expectScimError(await scim("POST", "/Users", { schemas: [USER], userName: "x".repeat(300) }), 400, "invalidValue");
    expectScimError(await scim("POST", "/Users", "not json"), 400, "invalidSyntax");
    expectScimError(await scim("POST", "/Users", [{ schemas: [USER], userName: "x" }]), 400, "invalidSyntax");
    expect(app.scim.users.size).toBe(before);
  });

  it("a PATCH may not change the id; a stale If-Match is refused", async () => {
    const { scim } = await setUp();
    const created = (await scim("POST", "/Users", { schemas: [USER], userName: "p@proven.example" })).body as Json;
    expectScimError(
      await scim("PATCH", `/Users/${created.id}`, { schemas: [PATCH], Operations: [{ op: "replace", path: "id", value: "mine" }] }),
      400,
      "mutability",
    );
    const changed = await scim(
      "PATCH",
      `/Users/${created.id}`,
      { schemas: [PATCH], Operations: [{ op: "add", path: "title", value: "x" }] },
      { "if-match": 'W/"1"' },
    );
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).toBe('W/"2"');
    expectScimError(
      await scim(
        "PATCH",
        `/Users/${created.id}`,
        { schemas: [PATCH], Operations: [{ op: "add", path: "title", value: "y" }] },
        { "if-match": 'W/"1"' },
      ),
      412,
    );
    expectScimError(await scim("DELETE", `/Users/${created.id}`, undefined, { "if-match": 'W/"1"' }), 412);
  });
});

describe("roles from groups", () => {
  it("a group named as a declared role gives it; leaving it gives member back; renaming and deleting the group follow", async () => {
    const { app, organizationId, scim } = await setUp();
    const user = (await scim("POST", "/Users", { schemas: [USER], userName: "r@proven.example" })).body as Json;
    const userId = userOf(app, user.id);
    const group = (await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Admin", members: [{ value: user.id }] })).body as Json;
    expect(await app.store.getMember?.(organizationId, userId)).toMatchObject({ role: "admin" });
    expect(app.audit.some((row) => row.type === "scimRoleChanged" && row.detail?.includes("role=admin"))).toBe(true);

    await scim("PATCH", `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "displayName", value: "Engineering" }],
    });
    expect(await app.store.getMember?.(organizationId, userId)).toMatchObject({ role: "member" });
    await scim("PUT", `/Groups/${group.id}`, { schemas: [GROUP], displayName: "admin", members: [{ value: user.id }] });
    expect(await app.store.getMember?.(organizationId, userId)).toMatchObject({ role: "admin" });
    await scim("DELETE", `/Groups/${group.id}`);
    expect(await app.store.getMember?.(organizationId, userId)).toMatchObject({ role: "member" });
  });

  it("a group named owner gives no role: the owner is authlib's to name", async () => {
    const { app, organizationId, scim } = await setUp();
    const user = (await scim("POST", "/Users", { schemas: [USER], userName: "o@proven.example" })).body as Json;
    await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Owner", members: [{ value: user.id }] });
    expect(await app.store.getMember?.(organizationId, userOf(app, user.id))).toMatchObject({ role: "member" });
  });

  it("an app's own role is given by its group; of several, the role that grants the most wins", async () => {
    const roles = defineRoles({ billing: ["invoice:read", "invoice:pay"], auditor: ["invoice:read"] });
    const { app, organizationId, scim } = await setUp(roles);
    const user = (await scim("POST", "/Users", { schemas: [USER], userName: "b@proven.example" })).body as Json;
    await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Auditor", members: [{ value: user.id }] });
    expect(await app.store.getMember?.(organizationId, userOf(app, user.id))).toMatchObject({ role: "auditor" });
    await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Billing", members: [{ value: user.id }] });
    expect(await app.store.getMember?.(organizationId, userOf(app, user.id))).toMatchObject({ role: "billing" });
    expect((await scim("GET", `/Users/${user.id}`)).body.groups.map((g: Json) => g.display)).toEqual(["Auditor", "Billing"]);
  });

  it("two groups of one name (without case) are a conflict", async () => {
    const { scim } = await setUp();
    await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Sales" });
    expectScimError(await scim("POST", "/Groups", { schemas: [GROUP], displayName: "SALES" }), 409, "uniqueness");
    expectScimError(await scim("POST", "/Groups", { schemas: [GROUP] }), 400, "invalidValue");
    expectScimError(
      await scim("POST", "/Groups", { schemas: [GROUP], displayName: "x", members: [{ display: "no value" }] }),
      400,
      "invalidValue",
    );
  });
});
