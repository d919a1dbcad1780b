/**
 * The request sequences Okta and Entra ID send to a SCIM 2.0 server, from their public docs (Okta's "SCIM 2.0
 * protocol" test sequence; Entra's "Tutorial: Develop a sample SCIM endpoint" and its provisioning
 * requests), replayed through `auth.handler` with the organization's bearer token: each status and body.
 */
import { describe, expect, it } from "vitest";
import { expectScimError, type Json, SCIM_JSON, scimApp } from "./helpers.js";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const LIST = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

async function setUp() {
  const app = scimApp();
  const ada = await app.signedUp("ada@example.com");
  const organizationId = await app.organization(ada, "acme", ["acme.example"]);
  const scim = app.client(await app.token(ada, organizationId));
  return { app, ada, organizationId, scim };
}

const q = (filter: string) => encodeURIComponent(filter);

describe("Okta's SCIM 2.0 sequence", () => {
  it("users: list, look up, create, read, conflict, unknown id, replace, deactivate", async () => {
    const { app, organizationId, scim } = await setUp();
    const first = await scim("GET", "/Users?count=1&startIndex=1");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe(SCIM_JSON);
    expect(first.body).toEqual({ schemas: [LIST], totalResults: 0, itemsPerPage: 0, startIndex: 1, Resources: [] });

    const none = await scim("GET", `/Users?filter=${q('userName eq "randomuser@acme.example"')}&startIndex=1&count=100`);
    expect(none.body.totalResults).toBe(0);

    const created = await scim("POST", "/Users", {
      schemas: [USER],
      userName: "Runscope.User@acme.example",
      name: { givenName: "Runscope", familyName: "User" },
      emails: [{ primary: true, value: "runscope.user@acme.example", type: "work" }],
      displayName: "Runscope User",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`http://localhost:3000/auth/scim/v2/Users/${created.body.id}`);
    expect(created.headers.get("etag")).toBe('W/"1"');
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: "Runscope.User@acme.example",
      externalId: "00ujl29u0le5T6Aj10h7",
      active: true,
      name: { givenName: "Runscope", familyName: "User" },
      groups: [],
      meta: { resourceType: "User", version: 'W/"1"' },
    });
    const id = created.body.id as string;
    // The password Okta sends is neither answered nor stored.
    expect(created.body.password).toBeUndefined();
    expect(JSON.stringify([...app.scim.users.values()])).not.toContain("1mz050nq");
    // The user is a member of the organization, with a proven address on its proven domain.
    const user = await app.store.getUserByEmail?.("runscope.user@acme.example");
    expect(user).toMatchObject({ name: "Runscope User", emailVerified: expect.any(Date) });
    expect(await app.store.getMember?.(organizationId, user?.id as string)).toMatchObject({ role: "member" });

    const read = await scim("GET", `/Users/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const found = await scim("GET", `/Users?filter=${q('userName eq "runscope.user@acme.example"')}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);

    expectScimError(await scim("POST", "/Users", { schemas: [USER], userName: "RUNSCOPE.user@acme.example" }), 409, "uniqueness");
    expectScimError(await scim("GET", "/Users/010226b8-90b1-4a1f-9e7d-6d3c2a9a1c0e"), 404);

    const replaced = await scim("PUT", `/Users/${id}`, {
      ...created.body,
      name: { givenName: "Another", familyName: "User" },
      displayName: "Another User",
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: { givenName: "Another", familyName: "User" }, meta: { version: 'W/"2"' } });
    expect((await app.store.getUser?.(user?.id as string))?.name).toBe("Another User");

    const deactivated = await scim("PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect(await app.store.getMember?.(organizationId, user?.id as string)).toBeNull();
  });

  it("groups: create, look up, rename, add and remove a member, delete", async () => {
    const { scim } = await setUp();
    const member = (await scim("POST", "/Users", { schemas: [USER], userName: "grace@acme.example" })).body;
    const created = await scim("POST", "/Groups", { schemas: [GROUP], displayName: "Test SCIMv2", members: [] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ schemas: [GROUP], displayName: "Test SCIMv2", members: [], meta: { resourceType: "Group" } });
    const id = created.body.id as string;

    const found = await scim("GET", `/Groups?filter=${q('displayName eq "Test SCIMv2"')}`);
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id }] });

    const renamed = await scim("PATCH", `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { id, displayName: "Test SCIMv2 renamed" } }],
    });
    expect(renamed.body.displayName).toBe("Test SCIMv2 renamed");

    const added = await scim("PATCH", `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "add", path: "members", value: [{ value: member.id, display: member.userName }] }],
    });
    expect(added.status).toBe(200);
    expect(added.body.members).toEqual([
      { value: member.id, display: "grace@acme.example", $ref: `http://localhost:3000/auth/scim/v2/Users/${member.id}` },
    ]);
    expect((await scim("GET", `/Users/${member.id}`)).body.groups).toEqual([
      { value: id, display: "Test SCIMv2 renamed", $ref: `http://localhost:3000/auth/scim/v2/Groups/${id}` },
    ]);

    const removed = await scim("PATCH", `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "remove", path: `members[value eq "${member.id}"]` }],
    });
    expect(removed.body.members).toEqual([]);

    const deleted = await scim("DELETE", `/Groups/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expectScimError(await scim("GET", `/Groups/${id}`), 404);
  });
});

describe("Entra ID's provisioning requests", () => {
  it("users: look up by userName, create with the enterprise extension, update with capitalised ops, disable with the string False, delete", async () => {
    const { app, organizationId, scim } = await setUp();
    const userName = "Test_User_dfeef4c5-5681-4387-b016-bdf221e82081@acme.example";
    expect((await scim("GET", `/Users?filter=${q(`userName eq "${userName}"`)}`)).body).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim("POST", "/Users", {
      schemas: [USER, ENTERPRISE],
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      userName,
      active: true,
      emails: [{ primary: true, type: "work", value: "Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@acme.example" }],
      meta: { resourceType: "User" },
      name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
      roles: [],
      [ENTERPRISE]: { employeeNumber: "701984", department: "Tour Operations" },
    });
    expect(created.status).toBe(201);
    expect(created.body.schemas).toEqual([USER, ENTERPRISE]);
    expect(created.body[ENTERPRISE]).toEqual({ employeeNumber: "701984", department: "Tour Operations" });
    // The client's own `meta` is not kept: the server's is.
    expect(created.body.meta).toMatchObject({ resourceType: "User", version: 'W/"1"', created: expect.any(String) });
    const id = created.body.id as string;

    expect((await scim("GET", `/Users?filter=${q(`userName eq "${userName}"`)}`)).body.totalResults).toBe(1);

    const updated = await scim("PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Replace", path: "displayName", value: "Test User" },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "updatedEmail@acme.example" },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
        { op: "Add", path: `${ENTERPRISE}:manager`, value: { value: "manager-id" } },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      displayName: "Test User",
      emails: [{ primary: true, type: "work", value: "updatedEmail@acme.example" }],
      name: { familyName: "updatedFamilyName", givenName: "givenName" },
      [ENTERPRISE]: { employeeNumber: "701984", manager: { value: "manager-id" } },
    });

    const disabled = await scim("PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.active).toBe(false);
    const userId = app.scim.users.get(id)?.userId as string;
    expect(await app.store.getMember?.(organizationId, userId)).toBeNull();

    const deleted = await scim("DELETE", `/Users/${id}`);
    expect(deleted.status).toBe(204);
    expectScimError(await scim("GET", `/Users/${id}`), 404);
    expect((await scim("GET", `/Users?filter=${q(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
  });

  it("groups: create, look up without members, add a member, remove it by value, delete", async () => {
    const { scim } = await setUp();
    const member = (await scim("POST", "/Users", { schemas: [USER], userName: "lin@acme.example" })).body as Json;
    const created = await scim("POST", "/Groups", {
      externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
      displayName: "Group1DisplayName",
      meta: { resourceType: "Group" },
      schemas: [GROUP],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
      displayName: "Group1DisplayName",
      members: [],
    });
    const id = created.body.id as string;

    const found = await scim("GET", `/Groups?excludedAttributes=members&filter=${q('displayName eq "Group1DisplayName"')}`);
    expect(found.body.totalResults).toBe(1);
    expect(Object.keys(found.body.Resources[0]).sort()).toEqual(["displayName", "externalId", "id", "meta", "schemas"]);

    const added = await scim("PATCH", `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Add", path: "members", value: [{ value: member.id }] }],
    });
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: Json) => m.value)).toEqual([member.id]);

    const removed = await scim("PATCH", `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Remove", path: "members", value: [{ value: member.id }] }],
    });
    expect(removed.body.members).toEqual([]);

    expect((await scim("DELETE", `/Groups/${id}`)).status).toBe(204);
    expect((await scim("GET", "/Groups")).body.totalResults).toBe(0);
  });
});

describe("discovery", () => {
  it("ServiceProviderConfig, ResourceTypes and Schemas describe this server", async () => {
    const { scim } = await setUp();
    const config = await scim("GET", "/ServiceProviderConfig");
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 100 },
      etag: { supported: true },
      authenticationSchemes: [{ type: "oauthbearertoken" }],
    });
    const types = await scim("GET", "/ResourceTypes");
    expect(types.body.Resources.map((r: Json) => [r.id, r.endpoint, r.schema])).toEqual([
      ["User", "/Users", USER],
      ["Group", "/Groups", GROUP],
    ]);
    expect((await scim("GET", "/ResourceTypes/Group")).body.endpoint).toBe("/Groups");
    const schemas = await scim("GET", "/Schemas");
    expect(schemas.body.Resources.map((r: Json) => r.id)).toEqual([USER, GROUP, ENTERPRISE]);
    expect((await scim("GET", `/Schemas/${USER}`)).body.attributes.map((a: Json) => a.name)).toContain("userName");
    expectScimError(await scim("GET", "/Schemas/urn:unknown"), 404);
    expectScimError(await scim("POST", "/ServiceProviderConfig", { schemas: [] }), 405);
    expectScimError(await scim("GET", "/Bulk"), 404);
    expectScimError(await scim("DELETE", "/Users"), 405);
  });
});
