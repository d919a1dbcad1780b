/**
 * SCIM's security: a token of organization A never reads or changes B's directory (by id, by filter, by a
 * group's members); a request without a live token (none, malformed, unknown, revoked, rotated out, an API
 * key) is a 401 SCIM error; the token is never in the store, the logs or the audit rows; a huge or deeply
 * nested body and `count=1e9` are bounded.
 */
import { describe, expect, it } from "vitest";
import { expectScimError, type Json, scimApp } from "./helpers.js";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** Two organizations, A (Ada's) and B (Bea's), each with a token, a user and a group. */
async function twoOrganizations() {
  const app = scimApp({ sso: { scim: { maxResults: 50 } } });
  const ada = await app.signedUp("ada@example.com");
  const bea = await app.signedUp("bea@example.com");
  const a = await app.organization(ada, "org-a", ["a.example"]);
  const b = await app.organization(bea, "org-b", ["b.example"]);
  const tokenA = await app.token(ada, a);
  const tokenB = await app.token(bea, b);
  const scimA = app.client(tokenA);
  const scimB = app.client(tokenB);
  const userB = (await scimB("POST", "/Users", { schemas: [USER], userName: "carl@b.example" })).body as Json;
  const groupB = (await scimB("POST", "/Groups", { schemas: [GROUP], displayName: "B team", members: [{ value: userB.id }] })).body as Json;
  return { app, ada, bea, a, b, tokenA, tokenB, scimA, scimB, userB, groupB };
}

describe("a token of organization A cannot touch B", () => {
  it("B's user and group ids are not found by GET, PUT, PATCH or DELETE; B's directory is unchanged", async () => {
    const { app, b, scimA, scimB, userB, groupB } = await twoOrganizations();
    const before = JSON.stringify([...app.scim.users.values(), ...app.scim.groups.values()]);
    for (const [kind, id] of [
      ["Users", userB.id],
      ["Groups", groupB.id],
    ]) {
      expectScimError(await scimA("GET", `/${kind}/${id}`), 404);
      const body =
        kind === "Users" ? { schemas: [USER], userName: "stolen@a.example", active: false } : { schemas: [GROUP], displayName: "stolen" };
      expectScimError(await scimA("PUT", `/${kind}/${id}`, body), 404);
      expectScimError(
        await scimA("PATCH", `/${kind}/${id}`, { schemas: [PATCH], Operations: [{ op: "replace", value: { active: false } }] }),
        404,
      );
      expectScimError(await scimA("DELETE", `/${kind}/${id}`), 404);
    }
    expect(JSON.stringify([...app.scim.users.values(), ...app.scim.groups.values()])).toBe(before);
    expect((await scimB("GET", `/Users/${userB.id}`)).body.active).toBe(true);
    expect(await app.store.getMember?.(b, app.scim.users.get(userB.id)?.userId as string)).toMatchObject({ role: "member" });
  });

  it("a filter that would match B's users lists none of them; A's lists count only A's", async () => {
    const { scimA } = await twoOrganizations();
    await scimA("POST", "/Users", { schemas: [USER], userName: "dora@a.example" });
    for (const filter of ['userName eq "carl@b.example"', 'userName co "@"', "userName pr", 'id pr or userName ew "b.example"']) {
      const list = await scimA("GET", `/Users?filter=${encodeURIComponent(filter)}`);
      expect(list.status).toBe(200);
      expect(list.body.Resources.map((r: Json) => r.userName)).not.toContain("carl@b.example");
    }
    expect((await scimA("GET", "/Users")).body.totalResults).toBe(1);
    expect((await scimA("GET", "/Groups")).body.totalResults).toBe(0);
  });

  it("A's group cannot take B's user as a member, by POST, PUT or PATCH", async () => {
    const { scimA, userB } = await twoOrganizations();
    expectScimError(
      await scimA("POST", "/Groups", { schemas: [GROUP], displayName: "x", members: [{ value: userB.id }] }),
      400,
      "invalidValue",
    );
    const group = (await scimA("POST", "/Groups", { schemas: [GROUP], displayName: "A team" })).body as Json;
    expectScimError(
      await scimA("PUT", `/Groups/${group.id}`, { schemas: [GROUP], displayName: "A team", members: [{ value: userB.id }] }),
      400,
      "invalidValue",
    );
    const patched = await scimA("PATCH", `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "add", path: "members", value: [{ value: userB.id }] }],
    });
    expectScimError(patched, 400, "invalidValue");
    expect((await scimA("GET", `/Groups/${group.id}`)).body.members).toEqual([]);
  });

  it("a user on B's proven domain provisioned by A is a new user of A's, never B's account", async () => {
    const { app, a, scimA, userB } = await twoOrganizations();
    const created = await scimA("POST", "/Users", {
      schemas: [USER],
      userName: "carl@b.example",
      emails: [{ value: "carl@b.example", primary: true }],
    });
    expect(created.status).toBe(201);
    const carlOfB = app.scim.users.get(userB.id)?.userId;
    const carlOfA = app.scim.users.get(created.body.id)?.userId as string;
    expect(carlOfA).not.toBe(carlOfB);
    // B's user keeps the address; A's has none, and is a member of A only.
    expect((await app.store.getUser?.(carlOfA))?.email).toBeNull();
    expect(await app.store.listMembershipsByUser?.(carlOfA)).toEqual([expect.objectContaining({ organizationId: a })]);
  });
});

describe("a request without a live token", () => {
  it("no header, a malformed header, a token of another shape or a wrong checksum is a 401 SCIM error that reads nothing", async () => {
    const { app, tokenA } = await twoOrganizations();
    const wrongChecksum = `${tokenA.slice(0, -1)}${tokenA.endsWith("A") ? "B" : "A"}`;
    const reads = app.logs.filter((line) => line.includes("adapter_getScimToken")).length;
    for (const headers of [
      {},
      { authorization: "Basic YWRhOnB3" },
      { authorization: "Bearer" },
      { authorization: `Bearer ${tokenA} extra` },
      { authorization: `Bearer ${wrongChecksum}` },
      { authorization: "Bearer acme_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH012345" },
    ]) {
      const answer = await app.client(undefined)("GET", "/Users", undefined, headers);
      expectScimError(answer, 401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="SCIM"');
    }
    expect(app.logs.filter((line) => line.includes("adapter_getScimToken")).length).toBe(reads);
  });

  it("an unknown token, or one with a wrong secret, is refused", async () => {
    const { app, tokenA } = await twoOrganizations();
    const { formatKey, parseKey } = await import("../../../src/crypto/key-format.js");
    const parts = parseKey("scim", tokenA);
    if (!parts) throw new Error("not a token");
    // The first character changed to another one: a well-formed token (its checksum recomputed) with a wrong secret.
    const wrongSecret = formatKey("scim", { id: parts.id, secret: `${parts.secret.startsWith("a") ? "b" : "a"}${parts.secret.slice(1)}` });
    const unknownId = formatKey("scim", { id: "0".repeat(16), secret: parts.secret });
    expectScimError(await app.client(wrongSecret)("GET", "/Users"), 401);
    expectScimError(await app.client(unknownId)("GET", "/Users"), 401);
    expect((await app.client(tokenA)("GET", "/Users")).status).toBe(200);
  });

  it("a revoked token is refused at its next request; a rotation (new token, old revoked) keeps the directory reachable", async () => {
    const { app, ada, a, tokenA } = await twoOrganizations();
    const newToken = await app.token(ada, a);
    const old = (await app.auth.api.listScimTokens(app.as(ada), { organizationId: a })).find((t) => tokenA.includes(t.id));
    expect(old).toBeDefined();
    await app.auth.api.revokeScimToken(app.as(ada), { organizationId: a, tokenId: old?.id as string });
    expectScimError(await app.client(tokenA)("GET", "/Users"), 401);
    expect((await app.client(newToken)("GET", "/Users")).status).toBe(200);
  });
});

describe("the token is kept secret", () => {
  it("is never in the store, the logs or the audit rows (only its public id)", async () => {
    const { app, tokenA, tokenB, scimA } = await twoOrganizations();
    await scimA("POST", "/Users", { schemas: [USER], userName: "eve@a.example" });
    await app.client(`${tokenA}x`)("GET", "/Users");
    const everything = JSON.stringify({
      tokens: [...app.scim.tokens.values()],
      users: [...app.scim.users.values()],
      logs: app.logs,
      audit: app.audit,
    });
    for (const token of [tokenA, tokenB]) {
      const secretPart = token.slice("scim_".length + 16);
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(secretPart.slice(0, 32));
    }
    expect(app.audit.some((row) => row.type === "scimUserCreated" && row.detail?.includes(`token=${tokenA.slice(5, 21)}`))).toBe(true);
  });
});

describe("bounds", () => {
  it("a body over 64 KiB is refused as invalidSyntax; nothing is made", async () => {
    const { app, scimA } = await twoOrganizations();
    const users = app.scim.users.size;
    const huge = { schemas: [USER], userName: "big@a.example", title: "x".repeat(70 * 1024) };
    expectScimError(await scimA("POST", "/Users", huge), 400, "invalidSyntax");
    expect(app.scim.users.size).toBe(users);
  });

  it("a deeply nested body is refused as invalidSyntax", async () => {
    const { scimA } = await twoOrganizations();
    const deep = `{"schemas":["${USER}"],"userName":"deep@a.example","x":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    expectScimError(await scimA("POST", "/Users", deep), 400, "invalidSyntax");
    const nested = `{"schemas":["${PATCH}"],"Operations":[{"op":"add","path":"x","value":${'{"a":'.repeat(20)}1${"}".repeat(20)}}]}`;
    const user = (await scimA("POST", "/Users", { schemas: [USER], userName: "n@a.example" })).body as Json;
    expectScimError(await scimA("PATCH", `/Users/${user.id}`, nested), 400, "invalidSyntax");
  });

  it("count=1e9 answers at most maxResults; a count that is not a number is invalidValue", async () => {
    const { scimA } = await twoOrganizations();
    for (let i = 0; i < 55; i++) await scimA("POST", "/Users", { schemas: [USER], userName: `u${i}@a.example` });
    const page = await scimA("GET", "/Users?count=1000000000&startIndex=1");
    expect(page.body).toMatchObject({ totalResults: 55, itemsPerPage: 50, startIndex: 1 });
    expect(page.body.Resources).toHaveLength(50);
    const last = await scimA("GET", "/Users?count=10&startIndex=51");
    expect(last.body).toMatchObject({ totalResults: 55, itemsPerPage: 5, startIndex: 51 });
    expect((await scimA("GET", "/Users?count=0")).body).toMatchObject({ totalResults: 55, itemsPerPage: 0, Resources: [] });
    expect((await scimA("GET", "/Users?startIndex=-4&count=1")).body).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
    expectScimError(await scimA("GET", "/Users?count=1e9"), 400, "invalidValue");
    expectScimError(await scimA("GET", "/Users?startIndex=abc"), 400, "invalidValue");
  });

  it("a filter that does not parse is invalidFilter; a path too deep for SCIM is not found", async () => {
    const { scimA } = await twoOrganizations();
    expectScimError(await scimA("GET", `/Users?filter=${encodeURIComponent('userName eq "x')}`), 400, "invalidFilter");
    expectScimError(await scimA("GET", "/Users/a/b"), 404);
  });
});
