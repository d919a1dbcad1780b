/**
 * The `path` of a SCIM PATCH operation (`features/sso/scim/patch-path.ts`, RFC 7644 §3.5.2): the lengths
 * accepted, a value filter's brackets found past quoted (and escaped) text, and each refusal with its
 * `scimType` and the detail the identity provider's admin reads. patch.test.ts states paths through whole
 * PATCH requests beside scim-patch.
 */
import { describe, expect, it } from "vitest";
import { ScimInvalidRequest } from "../../../src/errors.js";
import { parsePatchPath } from "../../../src/features/sso/scim/patch-path.js";

const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

/** The refusal of `path`: its `scimType` and message. */
function refusal(path: string): { scimType?: string; message: string } {
  try {
    parsePatchPath(path);
  } catch (error) {
    expect(error).toBeInstanceOf(ScimInvalidRequest);
    return { scimType: (error as ScimInvalidRequest).scimType, message: (error as ScimInvalidRequest).message };
  }
  throw new Error(`"${path}" was not refused`);
}

const LENGTH = "A PATCH path must be 1 to 1000 characters.";
const filterShape = (path: string) => `"${path}" is not a path: a value filter is \`attribute[filter]\`, then at most \`.subAttribute\`.`;
const unknown = (path: string) => `"${path}" is not a path this server knows: an attribute, at most one sub-attribute deep.`;

describe("a PATCH path's length", () => {
  it("is 1 to 1000 characters", () => {
    expect(parsePatchPath("a")).toEqual({ attribute: "a" });
    expect(parsePatchPath("a".repeat(1000))).toEqual({ attribute: "a".repeat(1000) });
    expect(refusal("")).toEqual({ scimType: "invalidPath", message: LENGTH });
    expect(refusal("a".repeat(1001))).toEqual({ scimType: "invalidPath", message: LENGTH });
  });
});

describe("a value filter's brackets", () => {
  it("close at the first `]` outside a quoted string, an escaped quote staying inside it", () => {
    expect(parsePatchPath('members[value eq "a\\"]b"]')).toEqual({
      attribute: "members",
      filter: { op: "eq", attrPath: "value", compValue: 'a"]b' },
    });
    expect(parsePatchPath('members[value eq "a]b"].display')).toEqual({
      attribute: "members",
      filter: { op: "eq", attrPath: "value", compValue: "a]b" },
      subAttribute: "display",
    });
  });

  it("refuse a filter never closed, text after it other than `.subAttribute`, or no single attribute before it", () => {
    for (const path of ["a[.", 'emails[type eq "work"', 'emails[type eq "work"]x', 'emails[type eq "work"]value', "name.givenName[x eq 1]"])
      expect(refusal(path), path).toEqual({ scimType: "invalidPath", message: filterShape(path) });
  });

  it("are looked for only from the `[` on: a quote before it is part of the (refused) name", () => {
    const path = 'a"[type eq "x"]';
    expect(refusal(path)).toEqual({ scimType: "invalidPath", message: unknown(path) });
  });
});

describe("a PATCH path's names", () => {
  it("refuse an attribute that is not a name, a bare schema URN, a sub-attribute that is not a name, or a third step", () => {
    for (const path of ["1abc", '[type eq "x"]', ENTERPRISE, "name.1bad", "name.", "a.b.c", 'emails[type eq "work"].1bad'])
      expect(refusal(path), path).toEqual({ scimType: "invalidPath", message: unknown(path) });
  });

  it("accept `$ref` and names with digits, `_` and `-` after the first letter", () => {
    expect(parsePatchPath("members.$ref")).toEqual({ attribute: "members", subAttribute: "$ref" });
    expect(parsePatchPath("x_1-b.c2")).toEqual({ attribute: "x_1-b", subAttribute: "c2" });
    expect(parsePatchPath(`${ENTERPRISE}:manager`)).toEqual({ extension: ENTERPRISE, attribute: "manager" });
  });
});
