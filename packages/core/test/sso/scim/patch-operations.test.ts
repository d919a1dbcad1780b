/**
 * SCIM PATCH operations (`features/sso/scim/patch.ts`, RFC 7644 §3.5.2) stated with exact results where
 * patch.test.ts's corpus (compared with scim-patch) does not reach: attribute names found without case
 * (the exact key first), a multi-valued `add` that never adds an element twice but tells apart elements
 * that differ, values added to a single value or to nothing, filters that make the element they describe,
 * removals that change nothing, and each refusal's `scimType` with the detail the identity provider's admin
 * reads.
 */
import { describe, expect, it } from "vitest";
import { ScimInvalidRequest } from "../../../src/errors.js";
import { applyPatch, parsePatchRequest } from "../../../src/features/sso/scim/patch.js";
import type { ScimObject } from "../../../src/types/scim.js";

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

type Operation = { op: string; path?: string; value?: unknown };
const patch = (resource: ScimObject, ...operations: Operation[]) =>
  applyPatch(resource, parsePatchRequest({ schemas: [PATCH_OP], Operations: operations }));

/** The refusal `run` throws: its `scimType` and message. */
function refusal(run: () => unknown): { scimType?: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ScimInvalidRequest);
    return { scimType: (error as ScimInvalidRequest).scimType, message: (error as ScimInvalidRequest).message };
  }
  throw new Error("not refused");
}

describe("parsePatchRequest", () => {
  const parse =
    (operations: unknown, schemas: unknown = [PATCH_OP]) =>
    () =>
      parsePatchRequest({ schemas, Operations: operations });

  it("answers each operation with its op in lower case, its path parsed, and a value only when one was given", () => {
    expect(parsePatchRequest({ schemas: [PATCH_OP], Operations: [{ op: "Remove", path: "title" }] })).toStrictEqual([
      { op: "remove", path: { attribute: "title" } },
    ]);
    expect(parsePatchRequest({ schemas: [PATCH_OP], operations: [{ op: "ADD", value: { title: "x" } }] })).toStrictEqual([
      { op: "add", value: { title: "x" } },
    ]);
  });

  it("refuses each malformed body or operation with its scimType and the rule it broke", () => {
    const cases: [() => unknown, string, string][] = [
      [parse([{ op: "add", value: {} }], ["urn:other"]), "invalidSyntax", `A PATCH body's \`schemas\` must hold "${PATCH_OP}".`],
      [parse([]), "invalidSyntax", "A PATCH body's `Operations` must be a list of 1 to 1000 operations."],
      [parse(["add"]), "invalidSyntax", "Each PATCH operation must be an object."],
      [parse([null]), "invalidSyntax", "Each PATCH operation must be an object."],
      [parse([["add"]]), "invalidSyntax", "Each PATCH operation must be an object."],
      [parse([{ op: "move", value: {} }]), "invalidSyntax", 'A PATCH operation\'s `op` must be "add", "replace" or "remove".'],
      [parse([{ op: 3, value: {} }]), "invalidSyntax", 'A PATCH operation\'s `op` must be "add", "replace" or "remove".'],
      [parse([{ op: "add", path: 7, value: 1 }]), "invalidPath", "A PATCH operation's `path` must be a string."],
      [parse([{ op: "replace", path: "title" }]), "invalidValue", 'A PATCH "replace" needs a `value`.'],
      [parse([{ op: "remove" }]), "noTarget", 'A PATCH "remove" needs a `path`.'],
      [parse([{ op: "add", value: ["x"] }]), "invalidValue", 'A PATCH "add" without a path takes an object of attributes.'],
      [parse([{ op: "add", value: null }]), "invalidValue", 'A PATCH "add" without a path takes an object of attributes.'],
    ];
    for (const [run, scimType, message] of cases) expect(refusal(run), message).toEqual({ scimType, message });
  });
});

describe("attribute names", () => {
  it("are found without case, the exact key first", () => {
    expect(patch({ userName: "a" }, { op: "replace", path: "USERNAME", value: "b" })).toEqual({ userName: "b" });
    expect(patch({ userName: "a" }, { op: "replace", value: { username: "b" } })).toEqual({ userName: "b" });
    expect(patch({ nickname: "lower", nickName: "exact" }, { op: "replace", path: "nickName", value: "x" })).toEqual({
      nickname: "lower",
      nickName: "x",
    });
    expect(patch({ name: { GivenName: "a" } }, { op: "replace", path: "name.givenName", value: "b" })).toEqual({
      name: { GivenName: "b" },
    });
  });
});

describe("add to a multi-valued attribute", () => {
  const home = { value: "babs@home.example", type: "home" };

  it("adds an element that differs from every one there, even by one field or by holding fewer", () => {
    expect(patch({ emails: [home] }, { op: "add", path: "emails", value: [{ value: "babs@home.example", type: "work" }] }).emails).toEqual([
      home,
      { value: "babs@home.example", type: "work" },
    ]);
    expect(patch({ emails: [home] }, { op: "add", path: "emails", value: [{ value: "babs@home.example" }] }).emails).toEqual([
      home,
      { value: "babs@home.example" },
    ]);
    expect(patch({ tags: [["a", "b"]] }, { op: "add", path: "tags", value: [["a", "c"], ["a"], ["a", "b"]] }).tags).toEqual([
      ["a", "b"],
      ["a", "c"],
      ["a"],
    ]);
    expect(patch({ tags: [["a"]] }, { op: "add", path: "tags", value: [["a", "b"]] }).tags).toEqual([["a"], ["a", "b"]]);
    expect(patch({ emails: [{ value: "x" }] }, { op: "add", path: "emails", value: [{ value: "x", type: "work" }] }).emails).toEqual([
      { value: "x" },
      { value: "x", type: "work" },
    ]);
  });

  it("does not add an element equal to one there (arrays and objects compared by value)", () => {
    expect(patch({ tags: [["a", "b"]] }, { op: "add", path: "tags", value: [["a", "b"]] }).tags).toEqual([["a", "b"]]);
    expect(patch({ emails: [home] }, { op: "add", path: "emails", value: [{ type: "home", value: "babs@home.example" }] }).emails).toEqual([
      home,
    ]);
  });

  it("takes one element given alone, and makes a list of a single value or of nothing", () => {
    expect(patch({ emails: [home] }, { op: "add", path: "emails", value: { value: "w@x" } }).emails).toEqual([home, { value: "w@x" }]);
    expect(patch({ nickName: "Babs" }, { op: "add", path: "nickName", value: ["B", "Babs"] }).nickName).toEqual(["Babs", "B"]);
    expect(patch({}, { op: "add", path: "emails", value: [home] }).emails).toEqual([home]);
    expect(patch({ emails: null }, { op: "add", path: "emails", value: [home] }).emails).toEqual([home]);
  });
});

describe("a value filter that selects nothing", () => {
  it("makes the element an `eq` filter (or an `and` of them) describes, with the sub-attribute", () => {
    expect(patch({}, { op: "add", path: 'phoneNumbers[type eq "work"].value', value: "555" }).phoneNumbers).toEqual([
      { type: "work", value: "555" },
    ]);
    expect(
      patch({ emails: [] }, { op: "replace", path: 'emails[type eq "other" and primary eq false].value', value: "o@x" }).emails,
    ).toEqual([{ type: "other", primary: false, value: "o@x" }]);
  });

  it("is noTarget for any other filter (or, another operator, a dotted or URN attribute)", () => {
    for (const path of [
      'emails[type eq "a" or type eq "b"].value',
      'emails[type eq "a" and value co "b"].value',
      'emails[type ne "a"].value',
      'emails[name.given eq "a"].value',
      'emails[urn:x:type eq "a"].value',
    ])
      expect(
        refusal(() => patch({ emails: [] }, { op: "add", path, value: "x" })),
        path,
      ).toEqual({
        scimType: "noTarget",
        message: "No value of `emails` matches the path's filter.",
      });
  });
});

describe("add and replace through a value filter without a sub-attribute", () => {
  const work = () => ({ emails: [{ value: "w@x", type: "work", primary: true }] });

  it("add merges the value into each selected element; replace replaces them whole", () => {
    expect(patch(work(), { op: "add", path: 'emails[type eq "work"]', value: { display: "W", VALUE: "n@x" } }).emails).toEqual([
      { value: "n@x", type: "work", primary: true, display: "W" },
    ]);
    expect(patch(work(), { op: "replace", path: 'emails[type eq "work"]', value: { value: "n@x" } }).emails).toEqual([{ value: "n@x" }]);
  });

  it("refuses a value that is not an object (invalidValue)", () => {
    expect(refusal(() => patch(work(), { op: "add", path: 'emails[type eq "work"]', value: "x" }))).toEqual({
      scimType: "invalidValue",
      message: "A value of `emails` must be an object.",
    });
  });
});

describe("a sub-attribute's parent", () => {
  it("is made when absent or null", () => {
    expect(patch({}, { op: "add", path: "name.givenName", value: "B" })).toEqual({ name: { givenName: "B" } });
    expect(patch({ name: null }, { op: "replace", path: "name.givenName", value: "B" })).toEqual({ name: { givenName: "B" } });
  });

  it("is refused when it holds a value that is not complex (invalidPath)", () => {
    for (const value of ["text", 0, false, ["list"]])
      expect(
        refusal(() => patch({ title: value }, { op: "add", path: "title.x", value: 1 })),
        String(value),
      ).toEqual({
        scimType: "invalidPath",
        message: "`title` is not a complex attribute: `title.x` names nothing.",
      });
  });
});

describe("an extension's attribute", () => {
  it("is added into the extension's object, made when absent", () => {
    expect(patch({ userName: "a" }, { op: "add", path: `${ENTERPRISE}:department`, value: "R&D" })).toEqual({
      userName: "a",
      [ENTERPRISE]: { department: "R&D" },
    });
    expect(patch({ userName: "a" }, { op: "replace", path: `${ENTERPRISE}:manager.value`, value: "m" })).toEqual({
      userName: "a",
      [ENTERPRISE]: { manager: { value: "m" } },
    });
  });
});

describe("remove", () => {
  it("of an extension's attribute where the extension is absent changes nothing (no empty extension made)", () => {
    const resource = { userName: "a" };
    expect(patch(resource, { op: "remove", path: `${ENTERPRISE}:department` })).toEqual({ userName: "a" });
    expect(patch({ [ENTERPRISE]: { department: "R&D", costCenter: "1" } }, { op: "remove", path: `${ENTERPRISE}:department` })).toEqual({
      [ENTERPRISE]: { costCenter: "1" },
    });
  });

  it("of members by value removes every member named, and none without a value of its own", () => {
    const members: ScimObject[] = [{ value: "a" }, { value: "b", display: "B" }, { display: "no value" }, { value: "c" }];
    expect(patch({ members }, { op: "remove", path: "members", value: [{ value: "a" }, { value: "b" }] }).members).toEqual([
      { display: "no value" },
      { value: "c" },
    ]);
    expect(patch({ members }, { op: "remove", path: "members", value: [{ display: "other" }] }).members).toEqual(members);
    expect(patch({ members }, { op: "remove", path: "members", value: { value: "c" } }).members).toEqual(members.slice(0, 3));
  });
});
