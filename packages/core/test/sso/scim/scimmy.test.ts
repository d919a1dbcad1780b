/**
 * Our answers beside `scimmy`'s for the same requests over the same users: SCIMMY declares the User
 * resource over the users our server holds (read back from our own list), and answers the same list
 * requests (`startIndex`, `count`, a filter) and the same refusals; the shapes are compared (schemas,
 * totalResults, startIndex, itemsPerPage, the resources' ids and attributes, error bodies). Where they
 * differ by design, a named test says why.
 */
import SCIMMY from "scimmy";
import { beforeAll, describe, expect, it } from "vitest";
import { type Json, scimApp } from "./helpers.js";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";

let scim: ReturnType<ReturnType<typeof scimApp>["client"]>;
let held: Json[] = [];

beforeAll(async () => {
  const app = scimApp();
  const ada = await app.signedUp("ada@example.com");
  const organizationId = await app.organization(ada, "acme", ["acme.example"]);
  scim = app.client(await app.token(ada, organizationId));
  for (const [userName, active, familyName] of [
    ["bjensen@acme.example", true, "Jensen"],
    ["mpepperidge@acme.example", false, "Pepperidge"],
    ["jsmith@acme.example", true, "Smith"],
    ["bwayne@acme.example", true, "Wayne"],
  ] as const)
    expect((await scim("POST", "/Users", { schemas: [USER], userName, active, name: { familyName } })).status).toBe(201);
  held = (await scim("GET", "/Users")).body.Resources;
  SCIMMY.Resources.declare(SCIMMY.Resources.User).egress((resource: { id?: string; filter?: { match(values: Json[]): Json[] } }) => {
    const records = held.map(({ groups: _groups, ...user }) => ({
      ...user,
      meta: { ...user.meta, created: new Date(user.meta.created), lastModified: new Date(user.meta.lastModified) },
    }));
    if (resource.id !== undefined) {
      const found = records.find((record) => record.id === resource.id);
      if (!found) throw new SCIMMY.Types.Error(404, null, `Resource ${resource.id} not found`);
      return found;
    }
    return resource.filter ? resource.filter.match(records) : records;
  });
}, 60_000);

/** SCIMMY's answer to a list request, as JSON. */
async function theirList(query: Record<string, unknown>): Promise<Json> {
  return JSON.parse(JSON.stringify(await new SCIMMY.Resources.User(query).read()));
}

/** The comparable part of a list answer: its schemas and counts, and each resource's id, userName and active. */
function shape(list: Json) {
  return {
    schemas: list.schemas,
    totalResults: list.totalResults,
    startIndex: list.startIndex,
    resources: list.Resources.map((r: Json) => ({ schemas: r.schemas, id: r.id, userName: r.userName, active: r.active, name: r.name })),
  };
}

describe("list answers agree with SCIMMY's", () => {
  for (const [label, query, ours] of [
    ["every user", {}, ""],
    ["a page: startIndex 2, count 2", { startIndex: 2, count: 2 }, "?startIndex=2&count=2"],
    [
      "a filter on userName",
      { filter: 'userName eq "jsmith@acme.example"' },
      `?filter=${encodeURIComponent('userName eq "jsmith@acme.example"')}`,
    ],
    ["a filter on active", { filter: "active eq false" }, `?filter=${encodeURIComponent("active eq false")}`],
    [
      "a filter with and",
      { filter: 'userName sw "b" and active eq true' },
      `?filter=${encodeURIComponent('userName sw "b" and active eq true')}`,
    ],
    ["a filter on a sub-attribute", { filter: 'name.familyName co "e"' }, `?filter=${encodeURIComponent('name.familyName co "e"')}`],
  ] as const)
    it(label, async () => {
      const answer = await scim("GET", `/Users${ours}`);
      expect(answer.status).toBe(200);
      expect(shape(answer.body)).toEqual(shape(await theirList(query)));
      // Each resource is the one our server answers for its id.
      for (const resource of answer.body.Resources) expect((await scim("GET", `/Users/${resource.id}`)).body).toEqual(resource);
    });
});

describe("list answers where we differ from SCIMMY by design", () => {
  it("itemsPerPage is the number of resources on the page (RFC 7644 §3.4.2: 'returned in a list response page'); SCIMMY answers the count asked for", async () => {
    const ours = (await scim("GET", `/Users?count=10&filter=${encodeURIComponent('userName eq "jsmith@acme.example"')}`)).body;
    const theirs = await theirList({ count: 10, filter: 'userName eq "jsmith@acme.example"' });
    expect(ours.itemsPerPage).toBe(1);
    expect(theirs.itemsPerPage).toBe(10);
    expect(ours.totalResults).toBe(theirs.totalResults);
  });
});

describe("paging past the end, where we differ from SCIMMY by design", () => {
  it("a startIndex past the last result answers no resources (RFC 7644 §3.4.2.4); SCIMMY's answer still carries resources", async () => {
    const ours = (await scim("GET", "/Users?startIndex=9&count=2")).body;
    const theirs = await theirList({ startIndex: 9, count: 2 });
    expect(ours).toMatchObject({ totalResults: 4, startIndex: 9, itemsPerPage: 0, Resources: [] });
    expect(theirs).toMatchObject({ totalResults: 4, startIndex: 9 });
    expect(theirs.Resources.length).toBeGreaterThan(0);
  });
});

describe("error bodies agree with SCIMMY's", () => {
  it("a resource that is not there: 404 with the same members", async () => {
    const ours = await scim("GET", "/Users/00000000-0000-4000-8000-000000000000");
    let theirs: Json = {};
    try {
      await new SCIMMY.Resources.User("00000000-0000-4000-8000-000000000000").read();
    } catch (error) {
      theirs = JSON.parse(JSON.stringify(new SCIMMY.Messages.ErrorResponse(error as Error)));
    }
    expect(ours.status).toBe(404);
    expect(Object.keys(ours.body).sort()).toEqual(Object.keys(theirs).sort());
    expect({ schemas: ours.body.schemas, status: ours.body.status }).toEqual({ schemas: theirs.schemas, status: theirs.status });
  });

  it("a conflict: 409 with scimType uniqueness, as SCIMMY writes it", async () => {
    const ours = await scim("POST", "/Users", { schemas: [USER], userName: "bjensen@acme.example" });
    const theirs = JSON.parse(JSON.stringify(new SCIMMY.Messages.ErrorResponse(new SCIMMY.Types.Error(409, "uniqueness", "taken"))));
    expect(ours.status).toBe(409);
    expect(Object.keys(ours.body).sort()).toEqual(Object.keys(theirs).sort());
    expect({ ...ours.body, detail: "taken" }).toEqual(theirs);
  });

  it("a filter that does not parse: 400 invalidFilter, as SCIMMY writes it", async () => {
    const ours = await scim("GET", `/Users?filter=${encodeURIComponent("userName eq")}`);
    let theirs: Json = {};
    try {
      await new SCIMMY.Resources.User({ filter: "userName eq" }).read();
      theirs = JSON.parse(JSON.stringify(new SCIMMY.Messages.ErrorResponse(new SCIMMY.Types.Error(400, "invalidFilter", "x"))));
    } catch (error) {
      theirs = JSON.parse(JSON.stringify(new SCIMMY.Messages.ErrorResponse(error as Error)));
    }
    expect(ours.status).toBe(400);
    expect({ schemas: ours.body.schemas, status: ours.body.status, scimType: ours.body.scimType }).toEqual({
      schemas: theirs.schemas,
      status: theirs.status,
      scimType: theirs.scimType,
    });
  });
});
