/**
 * SCIM filters (`features/sso/scim/filter.ts`): parsed by `scim2-parse-filter`, evaluated by ours, compared
 * with the parser's own `filter` on the same records for a corpus of filters (Okta's and Entra's, and the
 * RFC 7644 §3.4.2.2 examples). Where ours differs by design (strings compared without case where RFC 7643
 * says so; `pr` of an empty value), a named test says why.
 */
import { filter as oracle, parse } from "scim2-parse-filter";
import { describe, expect, it } from "vitest";
import { ScimInvalidRequest } from "../../../src/errors.js";
import { MAX_FILTER_LENGTH, matches, parseFilter } from "../../../src/features/sso/scim/filter.js";
import type { ScimObject } from "../../../src/types/scim.js";

const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

const RECORDS: ScimObject[] = [
  {
    id: "1",
    externalId: "ext-1",
    userName: "bjensen@example.com",
    name: { givenName: "Barbara", familyName: "Jensen" },
    title: "Tour Guide",
    active: true,
    emails: [
      { value: "bjensen@example.com", type: "work", primary: true },
      { value: "babs@home.example", type: "home" },
    ],
    meta: { lastModified: "2011-05-13T04:42:34Z", resourceType: "User" },
    [ENTERPRISE]: { employeeNumber: "701984", department: "Tour Operations" },
  },
  {
    id: "2",
    userName: "mpepperidge@example.com",
    name: { givenName: "Mandy", familyName: "Pepperidge" },
    active: false,
    emails: [{ value: "mandy@example.org", type: "work" }],
    meta: { lastModified: "2012-01-01T00:00:00Z", resourceType: "User" },
  },
  {
    id: "3",
    externalId: "ext-3",
    userName: "jsmith@example.com",
    name: { givenName: "John", familyName: "Smith" },
    title: "Engineer",
    active: true,
    emails: [],
    meta: { lastModified: "2010-06-01T00:00:00Z", resourceType: "User" },
    [ENTERPRISE]: { employeeNumber: "12", department: "Engineering" },
  },
];

const CORPUS = [
  'userName eq "bjensen@example.com"',
  'externalId eq "ext-3"',
  'userName sw "j"',
  'userName co "pepper"',
  'userName ew "@example.com"',
  "title pr",
  'title pr and userType eq "Employee"',
  'name.familyName co "sen"',
  'meta.lastModified gt "2011-05-13T04:42:34Z"',
  'meta.lastModified ge "2011-05-13T04:42:34Z"',
  'meta.lastModified lt "2011-05-13T04:42:34Z"',
  'meta.lastModified le "2011-05-13T04:42:34Z"',
  "active eq true",
  "active eq false",
  'title ne "Engineer"',
  'emails[type eq "work" and value co "@example.com"]',
  'emails[type eq "work" and value co "@example.com"] or title pr',
  'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
  'not (userName sw "b")',
  'emails.type eq "home"',
  `${ENTERPRISE}:employeeNumber eq "701984"`,
  `${ENTERPRISE}:department sw "Tour"`,
  'id eq "2"',
];

describe("filters select what scim2-parse-filter's own filter selects", () => {
  for (const text of CORPUS)
    it(text, () => {
      const parsed = parseFilter(text);
      const ids = RECORDS.filter((record) => matches(record, parsed)).map((record) => record.id);
      expect(ids).toEqual(RECORDS.filter(oracle(parse(text))).map((record) => record.id));
    });

  it("the corpus selects something and leaves something out (it tells filters apart)", () => {
    const counts = CORPUS.map((text) => RECORDS.filter((record) => matches(record, parseFilter(text))).length);
    expect(counts).toContain(0);
    expect(counts).toContain(1);
    expect(counts).toContain(2);
  });
});

describe("filters where ours differs by design", () => {
  it("userName and emails compare without case (RFC 7643 §4.1: caseExact false); the parser's filter compares with case", () => {
    const text = 'userName eq "BJensen@Example.com"';
    expect(RECORDS.filter((record) => matches(record, parseFilter(text))).map((record) => record.id)).toEqual(["1"]);
    expect(RECORDS.filter(oracle(parse(text)))).toEqual([]);
  });

  it("id and externalId compare with case (caseExact true)", () => {
    expect(RECORDS.filter((record) => matches(record, parseFilter('externalId eq "EXT-1"')))).toEqual([]);
    expect(RECORDS.filter((record) => matches(record, parseFilter('externalId eq "ext-1"')))).toHaveLength(1);
  });

  it("pr is false for an empty list or an empty string (RFC 7644 §3.4.2.2: a non-empty value); the parser's filter takes them as present", () => {
    const text = "emails pr";
    expect(RECORDS.filter((record) => matches(record, parseFilter(text))).map((record) => record.id)).toEqual(["1", "2"]);
    expect(RECORDS.filter(oracle(parse(text))).map((record) => record.id)).toEqual(["1", "2", "3"]);
    expect(matches({ nickName: "" }, parseFilter("nickName pr"))).toBe(false);
  });

  it("gt and lt between a boolean and anything do not hold (RFC 7644: no order for booleans)", () => {
    expect(matches({ active: true }, parseFilter("active gt false"))).toBe(false);
    expect(matches({ count: 3 }, parseFilter("count gt 2"))).toBe(true);
  });
});

describe("filters that are refused", () => {
  const refusal = (text: string) => {
    try {
      parseFilter(text);
    } catch (error) {
      expect(error).toBeInstanceOf(ScimInvalidRequest);
      return (error as ScimInvalidRequest).scimType;
    }
    return "accepted";
  };

  it("text that is not a filter is invalidFilter", () => {
    for (const text of ['userName eq "unclosed', "userName xx 1", "(userName eq 1", "eq", 'userName eq "a" and'])
      expect(refusal(text), text).toBe("invalidFilter");
  });

  it(`a filter longer than ${MAX_FILTER_LENGTH} characters is invalidFilter before it is parsed`, () => {
    const long = `userName eq "${"a".repeat(MAX_FILTER_LENGTH)}"`;
    expect(refusal(long)).toBe("invalidFilter");
    expect(refusal(`userName eq "${"a".repeat(MAX_FILTER_LENGTH - 20)}"`)).toBe("accepted");
  });
});
