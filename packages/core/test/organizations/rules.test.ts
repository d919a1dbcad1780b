/**
 * The pure rules of organizations, case by case: what each role grants, whom a role may give or act on,
 * what a session lacks for a policy, what a policy and a domain name may be.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { missingForPolicy } from "../../src/features/organizations/access.js";
import { domainName } from "../../src/features/organizations/domains.js";
import { parsePolicy } from "../../src/features/organizations/organizations.js";
import {
  defaultRoles,
  defineRoles,
  grantsNoMoreThan,
  isRole,
  ORGANIZATION_PERMISSIONS,
} from "../../src/features/organizations/permissions.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("roles", () => {
  it("the built-in three: the owner everything, the admin all but deleting, the member reading", () => {
    for (const permission of ORGANIZATION_PERMISSIONS) expect(defaultRoles.can({ role: "owner" }, permission)).toBe(true);
    expect(ORGANIZATION_PERMISSIONS.filter((permission) => defaultRoles.can({ role: "admin" }, permission))).toEqual(
      ORGANIZATION_PERMISSIONS.filter((permission) => permission !== "organization:delete"),
    );
    expect(ORGANIZATION_PERMISSIONS.filter((permission) => defaultRoles.can({ role: "member" }, permission))).toEqual([
      "organization:read",
    ]);
    expect(defaultRoles.can(undefined, "organization:read")).toBe(false);
    expect(defaultRoles.can({ role: "toString" }, "organization:read")).toBe(false);
    expect(defaultRoles.can({ role: "__proto__" }, "organization:read")).toBe(false);
  });

  it("an app's statements add to the built-in roles; its own roles read their organization; the owner holds all", () => {
    const roles = defineRoles({ member: ["doc:read"], editor: ["doc:read", "doc:write"] });
    expect(roles.can({ role: "member" }, "doc:read")).toBe(true);
    expect(roles.can({ role: "member" }, "doc:write")).toBe(false);
    expect(roles.can({ role: "editor" }, "doc:write")).toBe(true);
    expect(roles.can({ role: "editor" }, "organization:read")).toBe(true);
    expect(roles.can({ role: "editor" }, "member:invite")).toBe(false);
    expect(roles.can({ role: "admin" }, "doc:write")).toBe(false);
    expect(roles.can({ role: "owner" }, "doc:write")).toBe(true);
    expect(isRole(roles, "editor")).toBe(true);
    expect(isRole(roles, "constructor")).toBe(false);
    expect(Object.isFrozen(roles.map)).toBe(true);
  });

  it("gives an app's own role exactly its statements and reading, and never lets it reach the owner", () => {
    const roles = defineRoles({ editor: ["doc:write"] });
    expect([...(roles.map.editor ?? [])].sort()).toEqual(["doc:write", "organization:read"]);
    // A role granting everything the owner does still cannot give, or act on, an owner.
    const everything = defineRoles({ superadmin: [...ORGANIZATION_PERMISSIONS] });
    expect(grantsNoMoreThan(everything, "owner", "superadmin")).toBe(false);
    expect(grantsNoMoreThan(everything, "admin", "superadmin")).toBe(true);
    expect(() => defineRoles({ Admin: [] })).toThrow('The role name "Admin" must be 1 to 32 lower-case letters, digits, _ or -.');
  });

  it("refuses a role name that is not one", () => {
    for (const name of ["", "Admin", "9lives", "a b", "x".repeat(33)]) expect(() => defineRoles({ [name]: [] })).toThrow(TypeError);
    expect(() => defineRoles({ a: [], "b-c_d9": [] })).not.toThrow();
  });

  it("a role may be given, or its holder acted on, only by one whose role grants all it grants", () => {
    const roles = defineRoles({ editor: ["doc:write"], reviewer: ["doc:read"] });
    expect(grantsNoMoreThan(roles, "owner", "owner")).toBe(true);
    expect(grantsNoMoreThan(roles, "owner", "admin")).toBe(false);
    expect(grantsNoMoreThan(roles, "admin", "admin")).toBe(true);
    expect(grantsNoMoreThan(roles, "member", "admin")).toBe(true);
    expect(grantsNoMoreThan(roles, "admin", "member")).toBe(false);
    expect(grantsNoMoreThan(roles, "editor", "admin")).toBe(false);
    expect(grantsNoMoreThan(roles, "editor", "owner")).toBe(true);
    expect(grantsNoMoreThan(roles, "member", "reviewer")).toBe(true);
    expect(grantsNoMoreThan(roles, "reviewer", "member")).toBe(false);
    expect(grantsNoMoreThan(roles, "nonsense", "admin")).toBe(false);
  });
});

describe("a session against a policy", () => {
  const now = 1_900_000_000;
  const session = (amr: string[], aal: 1 | 2, age = 0) => ({ authTime: now - age, amr, aal });
  const at = () => vi.useFakeTimers({ now: now * 1000, toFake: ["Date"] });

  it("lacks nothing for no policy, whatever it is", () => {
    at();
    expect(missingForPolicy({}, undefined, "org-a")).toEqual([]);
    expect(missingForPolicy({ allowedSignInMethods: [] }, session(["pwd"], 1), "org-a")).toEqual([]);
  });

  it("a second factor: level 2 only; an unknown assurance has none", () => {
    at();
    expect(missingForPolicy({ requireSecondFactor: true }, session(["pwd"], 1), "org-a")).toEqual(["secondFactor"]);
    expect(missingForPolicy({ requireSecondFactor: true }, session(["pwd", "otp"], 2), "org-a")).toEqual([]);
    expect(missingForPolicy({ requireSecondFactor: true }, undefined, "org-a")).toEqual(["secondFactor"]);
    expect(missingForPolicy({ requireSecondFactor: false }, session(["pwd"], 1), "org-a")).toEqual([]);
  });

  it("the sign-in methods: the first factor's, by name", () => {
    at();
    const only = (methods: Array<"password" | "passkey" | "email" | "oauth" | "sso">) => ({ allowedSignInMethods: methods });
    expect(missingForPolicy(only(["password"]), session(["pwd", "otp"], 2), "org-a")).toEqual([]);
    expect(missingForPolicy(only(["passkey"]), session(["pwd", "hwk"], 2), "org-a")).toEqual(["signInMethod"]);
    expect(missingForPolicy(only(["passkey"]), session(["hwk"], 2), "org-a")).toEqual([]);
    expect(missingForPolicy(only(["email"]), session(["email"], 1), "org-a")).toEqual([]);
    expect(missingForPolicy(only(["oauth"]), session(["fed"], 1), "org-a")).toEqual([]);
    expect(missingForPolicy(only(["sso"]), session(["fed"], 1), "org-a")).toEqual(["signInMethod"]);
    expect(
      missingForPolicy(only(["sso"]), { ...session(["sso"], 1), sso: { organizationId: "org-a", connectionId: "c" } }, "org-a"),
    ).toEqual([]);
    // An SSO sign-in through another organization's connection (or none named) is not this one's SSO.
    expect(
      missingForPolicy(only(["sso"]), { ...session(["sso"], 1), sso: { organizationId: "org-b", connectionId: "c" } }, "org-a"),
    ).toEqual(["signInMethod"]);
    expect(missingForPolicy(only(["sso"]), session(["sso"], 1), "org-a")).toEqual(["signInMethod"]);
    expect(missingForPolicy(only(["password"]), session(["constructor"], 1), "org-a")).toEqual(["signInMethod"]);
    expect(missingForPolicy(only(["password"]), session([], 1), "org-a")).toEqual(["signInMethod"]);
    expect(missingForPolicy(only(["password"]), undefined, "org-a")).toEqual(["signInMethod"]);
  });

  it("a recent sign-in: at most sessionMaxAge seconds old", () => {
    at();
    expect(missingForPolicy({ sessionMaxAge: 600 }, session(["pwd"], 1, 600), "org-a")).toEqual([]);
    expect(missingForPolicy({ sessionMaxAge: 600 }, session(["pwd"], 1, 601), "org-a")).toEqual(["recentSignIn"]);
    expect(missingForPolicy({ sessionMaxAge: 600 }, undefined, "org-a")).toEqual(["recentSignIn"]);
    expect(
      missingForPolicy({ requireSecondFactor: true, allowedSignInMethods: ["sso"], sessionMaxAge: 60 }, session(["pwd"], 1, 61), "org-a"),
    ).toEqual(["secondFactor", "signInMethod", "recentSignIn"]);
  });
});

describe("a policy as given", () => {
  it("takes an object or its JSON text, each field checked, repeated methods once", () => {
    expect(parsePolicy({})).toEqual({});
    expect(parsePolicy('{"requireSecondFactor":true}')).toEqual({ requireSecondFactor: true });
    expect(parsePolicy({ allowedSignInMethods: ["sso", "sso", "passkey"], sessionMaxAge: 60 })).toEqual({
      allowedSignInMethods: ["sso", "passkey"],
      sessionMaxAge: 60,
    });
    expect(parsePolicy({ unknown: 1 })).toEqual({});
  });

  it.each([
    ["not JSON", "{"],
    ["an array", []],
    ["null", null],
    ["a number", 5],
    ["a string flag", { requireSecondFactor: "true" }],
    ["a method that is none", { allowedSignInMethods: ["magic"] }],
    ["methods not a list", { allowedSignInMethods: "sso" }],
    ["an age under a minute", { sessionMaxAge: 59 }],
    ["a fractional age", { sessionMaxAge: 60.5 }],
  ])("refuses %s", (_, given) => {
    expect(() => parsePolicy(given)).toThrow(expect.objectContaining({ type: "InvalidOrganization" }));
  });

  it.each([
    ["{", "`policy` must be an object."],
    [{ requireSecondFactor: 1 }, "`policy.requireSecondFactor` must be true or false."],
    [{ allowedSignInMethods: ["sso", "magic"] }, "`policy.allowedSignInMethods` must list some of password, passkey, email, oauth, sso."],
    [{ sessionMaxAge: "600" }, "`policy.sessionMaxAge` must be 60 seconds or more."],
  ])("says what is wrong with %j", (given, message) => {
    expect(() => parsePolicy(given)).toThrow(expect.objectContaining({ type: "InvalidOrganization", message }));
  });
});

describe("a domain name", () => {
  it("is lower case, without its trailing dot, in punycode", () => {
    expect(domainName("Example.COM.")).toBe("example.com");
    expect(domainName(" sub.example.co.uk ")).toBe("sub.example.co.uk");
    expect(domainName("bücher.example")).toBe("xn--bcher-kva.example");
  });

  it.each([
    "",
    "localhost",
    "a@b.com",
    "http://x.com",
    "x.com:80",
    "x.com/path",
    "1.2.3.4",
    "-x.com",
    "x-.com",
    "x..com",
    "[::1]",
    "x.com?q",
    "x%2ecom",
    `${"a".repeat(64)}.com`,
  ])("refuses %j", (given) => {
    expect(() => domainName(given)).toThrow(expect.objectContaining({ type: "InvalidOrganization" }));
  });
});
