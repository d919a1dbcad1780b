/**
 * SCIM PATCH (`features/sso/scim/patch.ts`, RFC 7644 §3.5.2) against `scim-patch` as the oracle: a corpus
 * of operations (the shapes Okta and Entra ID send, and the RFC's own examples) applied to the same user and
 * group by both, each result compared. Where the two differ by design, a named test says why. The refusals
 * (bad paths, bad operations, a filter that selects nothing) are named errors with their `scimType`.
 */
import { scimPatch } from "scim-patch";
import { describe, expect, it } from "vitest";
import { ScimInvalidRequest } from "../../../src/errors.js";
import { applyPatch, MAX_OPERATIONS, parsePatchRequest } from "../../../src/features/sso/scim/patch.js";
import { parsePatchPath } from "../../../src/features/sso/scim/patch-path.js";
import type { ScimObject } from "../../../src/types/scim.js";

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

type Operation = { op: string; path?: string; value?: unknown };

function user(): ScimObject {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", ENTERPRISE],
    id: "2819c223",
    userName: "bjensen@example.com",
    name: { givenName: "Barbara", familyName: "Jensen" },
    active: true,
    emails: [
      { value: "bjensen@example.com", type: "work", primary: true },
      { value: "babs@home.example", type: "home" },
    ],
    [ENTERPRISE]: { employeeNumber: "701984", manager: { value: "26118915" } },
  };
}

function group(): ScimObject {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    id: "e9e30dba",
    displayName: "Tour Guides",
    members: [
      { value: "2819c223", display: "Babs Jensen" },
      { value: "902c246b", display: "Mandy Pepperidge" },
    ],
  };
}

/** Ours: the request parsed, then applied. */
const ours = (resource: ScimObject, operations: Operation[]) =>
  applyPatch(resource, parsePatchRequest({ schemas: [PATCH_OP], Operations: operations }));
/** The oracle's (it wants `meta`; it is dropped again to compare). */
function theirs(resource: ScimObject, operations: Operation[]): ScimObject {
  const meta = { resourceType: "User", created: new Date(0), lastModified: new Date(0) };
  const { meta: _meta, ...patched } = scimPatch({ ...resource, meta } as never, operations as never) as unknown as ScimObject;
  return patched;
}

/** Operations whose result both agree on, by what they are. */
const USER_CORPUS: Record<string, Operation[]> = {
  "Okta deactivates: replace with a value object": [{ op: "replace", value: { active: false } }],
  "Entra deactivates: Replace with a path": [{ op: "Replace", path: "active", value: false }],
  "replace of a sub-attribute": [{ op: "replace", path: "name.givenName", value: "Barb" }],
  "replace of a complex attribute without a path": [{ op: "replace", value: { name: { givenName: "B", familyName: "J" } } }],
  "add of a new attribute without a path": [{ op: "add", value: { nickName: "Babs" } }],
  "add of a new attribute by path": [{ op: "add", path: "nickName", value: "Babs" }],
  "add of a sub-attribute": [{ op: "add", path: "name.middleName", value: "Q" }],
  "add merges into a complex attribute": [{ op: "add", path: "name", value: { honorificPrefix: "Dr" } }],
  "remove of a sub-attribute": [{ op: "remove", path: "name.familyName" }],
  "remove of an absent attribute changes nothing": [{ op: "remove", path: "title" }],
  "Entra's work address: replace through a value filter": [{ op: "Replace", path: 'emails[type eq "work"].value', value: "b@example.com" }],
  "a filter of two comparisons": [{ op: "replace", path: 'emails[type eq "work" and primary eq true].value', value: "p@example.com" }],
  "add through a filter that selects nothing makes the element": [
    { op: "add", path: 'emails[type eq "other"].value', value: "o@example.com" },
  ],
  "replace through a filter that selects nothing makes the element": [
    { op: "replace", path: 'emails[type eq "other"].value', value: "o@example.com" },
  ],
  "remove of the elements a filter selects": [{ op: "remove", path: 'emails[type eq "home"]' }],
  "remove through a filter that selects nothing": [{ op: "remove", path: 'emails[type eq "other"]' }],
  "remove of a sub-attribute of the selected elements": [{ op: "remove", path: 'emails[type eq "work"].primary' }],
  "add to a multi-valued attribute appends": [{ op: "add", path: "emails", value: [{ value: "x@example.com", type: "other" }] }],
  "add of an element already there changes nothing": [{ op: "add", path: "emails", value: [{ value: "babs@home.example", type: "home" }] }],
  "replace of a multi-valued attribute": [{ op: "replace", path: "emails", value: [{ value: "only@example.com" }] }],
  "remove of a multi-valued attribute": [{ op: "remove", path: "emails" }],
  "an extension's attribute by its URN path": [{ op: "replace", path: `${ENTERPRISE}:employeeNumber`, value: "2" }],
  "an extension's sub-attribute by its URN path": [{ op: "replace", path: `${ENTERPRISE}:manager.value`, value: "m2" }],
  "a core attribute by its URN path": [
    { op: "replace", path: "urn:ietf:params:scim:schemas:core:2.0:User:userName", value: "x@example.com" },
  ],
  "Entra's several operations in one request, in order": [
    { op: "Replace", path: "displayName", value: "Babs" },
    { op: "Replace", path: 'emails[type eq "work"].value', value: "babs@example.com" },
    { op: "Replace", path: "name.familyName", value: "Jensen-Smith" },
    { op: "Add", path: "title", value: "Tour Guide" },
  ],
  "a later operation sees an earlier one's result": [
    { op: "add", path: "nickName", value: "Babs" },
    { op: "replace", path: "nickName", value: "B" },
    { op: "remove", path: "name" },
  ],
};

const GROUP_CORPUS: Record<string, Operation[]> = {
  "Entra adds a member": [{ op: "Add", path: "members", value: [{ value: "5a4b3c2d" }] }],
  "removing a member given whole": [{ op: "remove", path: "members", value: [{ value: "2819c223", display: "Babs Jensen" }] }],
  "Okta removes a member by filter": [{ op: "remove", path: 'members[value eq "902c246b"]' }],
  "Okta renames the group": [{ op: "replace", value: { id: "e9e30dba", displayName: "Guides" } }],
  "Okta replaces the members": [{ op: "replace", path: "members", value: [{ value: "5a4b3c2d", display: "New" }] }],
  "removing every member": [{ op: "remove", path: "members" }],
  "adding and removing in one request": [
    { op: "add", path: "members", value: [{ value: "5a4b3c2d" }] },
    { op: "remove", path: 'members[value eq "2819c223"]' },
  ],
};

describe("PATCH results agree with scim-patch", () => {
  for (const [name, operations] of Object.entries(USER_CORPUS))
    it(`user: ${name}`, () => expect(ours(user(), operations)).toEqual(theirs(user(), operations)));
  for (const [name, operations] of Object.entries(GROUP_CORPUS))
    it(`group: ${name}`, () => expect(ours(group(), operations)).toEqual(theirs(group(), operations)));
});

describe("PATCH where it differs from scim-patch by design", () => {
  it("an add without a path whose value holds an extension's object merges into the extension (scim-patch splits the URN at its last colon)", () => {
    const operations = [{ op: "add", value: { [ENTERPRISE]: { department: "R&D" } } }];
    expect(ours(user(), operations)[ENTERPRISE]).toEqual({ employeeNumber: "701984", manager: { value: "26118915" }, department: "R&D" });
    expect(theirs(user(), operations)[ENTERPRISE]).toEqual({ employeeNumber: "701984", manager: { value: "26118915" } });
  });

  it("a replace through a filter without a sub-attribute replaces the selected elements whole (RFC 7644 §3.5.2.3; scim-patch merges)", () => {
    const operations = [{ op: "replace", path: 'emails[type eq "work"]', value: { value: "w@example.com", type: "work" } }];
    expect((ours(user(), operations).emails as ScimObject[])[0]).toEqual({ value: "w@example.com", type: "work" });
    expect((theirs(user(), operations).emails as ScimObject[])[0]).toEqual({ value: "w@example.com", type: "work", primary: true });
  });
});

describe("PATCH where it differs from scim-patch for Entra ID", () => {
  it("a remove of members with a value removes the members of those ids, whatever else the element holds (Entra sends only `value`)", () => {
    const operations = [{ op: "Remove", path: "members", value: [{ value: "2819c223" }] }];
    expect(ours(group(), operations).members).toEqual([{ value: "902c246b", display: "Mandy Pepperidge" }]);
    // scim-patch removes only an element equal to the one given, display and all: Entra's member would stay.
    expect(theirs(group(), operations).members).toHaveLength(2);
  });
});

describe("PATCH keeps the resource given unchanged", () => {
  it("answers a patched copy", () => {
    const original = user();
    const patched = ours(original, [{ op: "replace", path: "name.givenName", value: "B" }]);
    expect((patched.name as ScimObject).givenName).toBe("B");
    expect(original).toEqual(user());
  });
});

/** The refusal `run` throws: its type and `scimType`. */
function refusal(run: () => unknown): { type: string; scimType?: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ScimInvalidRequest);
    return { type: (error as ScimInvalidRequest).type, scimType: (error as ScimInvalidRequest).scimType };
  }
  throw new Error("no refusal");
}

describe("PATCH refusals", () => {
  const request =
    (operations: unknown, schemas: unknown = [PATCH_OP]) =>
    () =>
      parsePatchRequest({ schemas, Operations: operations });

  it("a body without the PatchOp schema, or without operations, is invalidSyntax", () => {
    expect(refusal(request([{ op: "add", path: "x", value: 1 }], ["urn:other"])).scimType).toBe("invalidSyntax");
    expect(refusal(request([])).scimType).toBe("invalidSyntax");
    expect(refusal(request("add")).scimType).toBe("invalidSyntax");
  });

  it(`more than ${MAX_OPERATIONS} operations are refused before any is applied`, () => {
    const many = Array.from({ length: MAX_OPERATIONS + 1 }, () => ({ op: "add", path: "nickName", value: "x" }));
    expect(refusal(request(many)).scimType).toBe("invalidSyntax");
    expect(parsePatchRequest({ schemas: [PATCH_OP], Operations: many.slice(1) })).toHaveLength(MAX_OPERATIONS);
  });

  it("an unknown op, an operation that is not an object, a path that is not a string are refused", () => {
    expect(refusal(request([{ op: "move", path: "x", value: 1 }])).scimType).toBe("invalidSyntax");
    expect(refusal(request(["add"])).scimType).toBe("invalidSyntax");
    expect(refusal(request([{ op: "add", path: 7, value: 1 }])).scimType).toBe("invalidPath");
  });

  it("an add or replace without a value, a remove without a path, a path-less value that is not an object", () => {
    expect(refusal(request([{ op: "add", path: "nickName" }])).scimType).toBe("invalidValue");
    expect(refusal(request([{ op: "remove" }])).scimType).toBe("noTarget");
    expect(refusal(request([{ op: "replace", value: "x" }])).scimType).toBe("invalidValue");
  });

  it("a replace through a filter that selects nothing and describes no element is noTarget (RFC 7644 §3.5.2.3)", () => {
    expect(refusal(() => ours(user(), [{ op: "replace", path: 'emails[value co "nobody"].type', value: "x" }])).scimType).toBe("noTarget");
    expect(refusal(() => ours(user(), [{ op: "replace", path: 'emails[type eq "none"]', value: { value: "x" } }])).scimType).toBe(
      "noTarget",
    );
  });

  it("a sub-attribute of an attribute that is not complex is invalidPath", () => {
    expect(refusal(() => ours(user(), [{ op: "replace", path: "userName.first", value: "x" }])).scimType).toBe("invalidPath");
  });

  it("a value filter's replacement must be an object", () => {
    expect(refusal(() => ours(user(), [{ op: "replace", path: 'emails[type eq "work"]', value: "x" }])).scimType).toBe("invalidValue");
  });
});

describe("PATCH paths", () => {
  it("parse an attribute, a sub-attribute, a value filter with a sub-attribute, an extension's attribute", () => {
    expect(parsePatchPath("userName")).toEqual({ attribute: "userName" });
    expect(parsePatchPath("name.givenName")).toEqual({ attribute: "name", subAttribute: "givenName" });
    expect(parsePatchPath('emails[type eq "work"].value')).toEqual({
      attribute: "emails",
      filter: { op: "eq", attrPath: "type", compValue: "work" },
      subAttribute: "value",
    });
    expect(parsePatchPath(`${ENTERPRISE}:manager.value`)).toEqual({ extension: ENTERPRISE, attribute: "manager", subAttribute: "value" });
    expect(parsePatchPath('members[value eq "a]b"]')).toEqual({
      attribute: "members",
      filter: { op: "eq", attrPath: "value", compValue: "a]b" },
    });
  });

  it("refuse what is not a path: too deep, an unclosed filter, text after a filter, a bad name, an empty or huge path", () => {
    for (const path of ["a.b.c", 'emails[type eq "work"', 'emails[type eq "work"]x', "1abc", "", "a".repeat(1001), 'a.b[type eq "x"]'])
      expect(refusal(() => parsePatchPath(path)).scimType).toBe("invalidPath");
    expect(refusal(() => parsePatchPath("emails[type eq]")).scimType).toBe("invalidFilter");
  });
});
