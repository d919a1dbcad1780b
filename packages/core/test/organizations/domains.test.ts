/**
 * Verified domains against a real DNS server on 127.0.0.1 (npm `dns2`), read through a `node:dns` resolver
 * as an app configures it (`organizations.resolveTxt`): the record to publish, proof and its refusals
 * (the wrong name, the wrong value, a name that is no domain, a domain another organization proved), the
 * re-check that takes a proof back, joining by a proven address's domain, and who may manage domains.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";
import { type Browser, getJson, organizationsApp, postJson } from "./helpers.js";

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(() => dns.close());
beforeEach(() => {
  dns.records.clear();
  dns.failing = false;
});

/** An app whose domain proofs ask the test's DNS server. */
const appWithDns = () => organizationsApp({ organizations: { resolveTxt: (name) => dns.resolveTxt(name) } });

/** An organization of `owner`'s: its id. */
async function organizationOf(owner: Browser, slug: string): Promise<string> {
  const created = await postJson(owner, "create", { name: slug, slug });
  expect(created.status).toBe(200);
  return created.body.organization.id as string;
}

/** Claims `domain` for `organizationId`: the domain as answered (with its record). */
async function claim(owner: Browser, organizationId: string, domain: string) {
  const added = await postJson(owner, "domain-add", { organizationId, domain });
  expect(added.status).toBe(200);
  return added.body.domain as { id: string; name: string; token: string; verifiedAt: string | null; record: Record<string, string> };
}

/** Publishes `values` (each one TXT record, as its strings) at `name`. */
const publish = (name: string, ...values: string[][]) => dns.records.set(name, values);

describe("proving a domain with a TXT record", () => {
  it("answers the record to publish; is not proven before it is published; is proven once it is", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "example.com");
    expect(domain).toMatchObject({ name: "example.com", verifiedAt: null });
    expect(domain.record).toEqual({ name: "_authlib-challenge.example.com", type: "TXT", value: domain.token });
    expect(domain.token).toMatch(/^authlib-verify=[0-9a-f]{32}$/);

    // Nothing published yet: the name does not exist (NXDOMAIN), which is "not proven", not an error.
    expect(await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).toEqual({
      status: 409,
      body: { error: "DomainNotProven" },
    });
    // The name exists but holds no TXT record (NOERROR, no answer): not proven either.
    publish("_authlib-challenge.example.com");
    expect((await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).body).toEqual({ error: "DomainNotProven" });

    publish("_authlib-challenge.example.com", ["v=spf1 -all"], [domain.token]);
    const verified = await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id });
    expect(verified.status).toBe(200);
    expect(verified.body.domain).toMatchObject({ id: domain.id, name: "example.com" });
    expect(verified.body.domain.verifiedAt).toEqual(expect.any(String));
    expect((await getJson(ada, "domains", { organizationId: id })).body.domains).toEqual([
      expect.objectContaining({ id: domain.id, verifiedAt: expect.any(String) }),
    ]);
    expect(app.events.map((event) => event.change)).toEqual(["created", "domainAdded", "domainVerified"]);
  });

  it("reads a record split in 255-byte strings as one (joined)", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "example.com");
    publish("_authlib-challenge.example.com", [domain.token.slice(0, 10), domain.token.slice(10)]);
    expect((await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).status).toBe(200);
  });

  it("is not proven by the token at another name: a sibling, a longer label, a child, the apex", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "example.com");
    for (const name of [
      "_authlib-challenge.other.example.com",
      "_authlib-challenge-x.example.com",
      "x._authlib-challenge.example.com",
      "example.com",
      "_authlib-challenge.example.com.evil.test",
      "_authlib-challenge.com",
    ]) {
      dns.records.clear();
      publish(name, [domain.token]);
      expect({ name, ...(await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })) }).toEqual({
        name,
        status: 409,
        body: { error: "DomainNotProven" },
      });
    }
    expect(app.orgs.domains.get(domain.id)?.verifiedAt).toBeNull();
  });

  it("compares the token exactly: another case, a space, a prefix or a longer value does not prove", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "example.com");
    const [prefix, hex] = domain.token.split("=") as [string, string];
    for (const value of [
      domain.token.toUpperCase(),
      `${prefix}=${hex.toUpperCase()}`,
      ` ${domain.token}`,
      `${domain.token} `,
      `${domain.token}0`,
      domain.token.slice(0, -1),
      `${prefix}=`,
      `x ${domain.token}`,
    ]) {
      publish("_authlib-challenge.example.com", [value]);
      expect({ value, status: (await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).status }).toEqual({
        value,
        status: 409,
      });
    }
    // Another organization's token at the right name proves nothing for this one.
    const bob = await app.signedUp("bob@example.org");
    const other = await claim(bob, await organizationOf(bob, "other"), "example.com");
    publish("_authlib-challenge.example.com", [other.token]);
    expect((await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).status).toBe(409);
  });

  it("takes the name in any case and with a trailing dot as one domain; asks the lower-case name", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "Example.COM.");
    expect(domain.name).toBe("example.com");
    expect(domain.record.name).toBe("_authlib-challenge.example.com");
    for (const again of ["example.com", "EXAMPLE.com", "example.com.", " example.com "])
      expect(await postJson(ada, "domain-add", { organizationId: id, domain: again })).toEqual({
        status: 400,
        body: { error: "InvalidOrganization" },
      });
    publish("_authlib-challenge.example.com", [domain.token]);
    expect((await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).status).toBe(200);
  });

  it("refuses what is not a domain name", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    for (const domain of [
      "a@b.com",
      "http://x.com",
      "1.2.3.4",
      "localhost",
      "x.com:80",
      "x.com/path",
      "[::1]",
      "",
      "exa mple.com",
      "-x.com",
      "x..com",
      `${"a".repeat(64)}.com`,
      "example.123",
    ])
      expect({ domain, ...(await postJson(ada, "domain-add", { organizationId: id, domain })) }).toEqual({
        domain,
        status: 400,
        body: { error: "InvalidOrganization" },
      });
    expect(app.orgs.domains.size).toBe(0);
  });

  it("is proven by one organization at a time: the second one's proof is DomainClaimed", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.org");
    const acme = await organizationOf(ada, "acme");
    const rival = await organizationOf(bob, "rival");
    const first = await claim(ada, acme, "example.com");
    const second = await claim(bob, rival, "example.com");
    publish("_authlib-challenge.example.com", [first.token], [second.token]);
    expect((await postJson(ada, "domain-verify", { organizationId: acme, domainId: first.id })).status).toBe(200);
    expect(await postJson(bob, "domain-verify", { organizationId: rival, domainId: second.id })).toEqual({
      status: 409,
      body: { error: "DomainClaimed" },
    });
    expect(app.orgs.domains.get(second.id)?.verifiedAt).toBeNull();
    // Once the first organization lets it go, the second may prove it.
    expect((await postJson(ada, "domain-remove", { organizationId: acme, domainId: first.id })).body).toEqual({ removed: true });
    expect((await postJson(bob, "domain-verify", { organizationId: rival, domainId: second.id })).status).toBe(200);
  });
});

describe("the re-check (auth.api.verifyDomains)", () => {
  it("takes the proof back when the record is gone, keeps it while it holds, and keeps it when the resolver fails", async () => {
    const app = appWithDns();
    const auth = createAuth(app.config);
    const ada = await app.signedUp("ada@example.com");
    const id = await organizationOf(ada, "acme");
    const kept = await claim(ada, id, "example.com");
    const dropped = await claim(ada, id, "example.net");
    await claim(ada, id, "never-proven.example");
    publish("_authlib-challenge.example.com", [kept.token]);
    publish("_authlib-challenge.example.net", [dropped.token]);
    for (const domain of [kept, dropped])
      expect((await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).status).toBe(200);

    expect(await auth.api.verifyDomains()).toEqual({ checked: 2, unverified: [], failed: [] });
    dns.records.delete("_authlib-challenge.example.net");
    expect(await auth.api.verifyDomains()).toEqual({ checked: 2, unverified: ["example.net"], failed: [] });
    expect(app.orgs.domains.get(dropped.id)?.verifiedAt).toBeNull();
    expect(app.orgs.domains.get(kept.id)?.verifiedAt).toBeInstanceOf(Date);
    expect(app.events.at(-1)).toEqual({ organizationId: id, actorId: null, change: "domainUnverified", targetId: dropped.id });

    // A record that now holds another value is gone too.
    publish("_authlib-challenge.example.com", ["authlib-verify=someone-else"]);
    dns.failing = true;
    expect(await auth.api.verifyDomains()).toEqual({ checked: 1, unverified: [], failed: ["example.com"] });
    expect(app.orgs.domains.get(kept.id)?.verifiedAt).toBeInstanceOf(Date);
    // A proof asked for while the resolver fails is not given, and the answer is no server error.
    expect(await postJson(ada, "domain-verify", { organizationId: id, domainId: dropped.id })).toEqual({
      status: 409,
      body: { error: "DomainNotProven" },
    });
    dns.failing = false;
    expect(await auth.api.verifyDomains()).toEqual({ checked: 1, unverified: ["example.com"], failed: [] });
  });

  it("is UnknownAction when organizations are off", async () => {
    const app = organizationsApp({ organizations: undefined });
    await expect(createAuth(app.config).api.verifyDomains()).rejects.toMatchObject({ type: "UnknownAction" });
  });
});

describe("joining by a proven address's domain", () => {
  /** Acme with example.com claimed (proven unless `proven` is false), joining as `domainJoin` says. */
  async function acmeWithDomain(domainJoin: "auto" | "suggest" | "off", proven = true) {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.org");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "example.com");
    if (proven) {
      publish("_authlib-challenge.example.com", [domain.token]);
      expect((await postJson(ada, "domain-verify", { organizationId: id, domainId: domain.id })).status).toBe(200);
    }
    expect((await postJson(ada, "update", { organizationId: id, domainJoin })).status).toBe(200);
    return { app, ada, id };
  }

  it('"auto": a user with a proven address there is a member once they list their organizations', async () => {
    const { app, id } = await acmeWithDomain("auto");
    const carol = await app.signedUp("carol@example.com");
    const listed = await getJson(carol, "list");
    expect(listed.body.organizations).toEqual([expect.objectContaining({ role: "member", organization: expect.objectContaining({ id }) })]);
    expect(listed.body.suggested).toEqual([]);
    expect(await app.orgs.methods.getMember(id, carol.userId)).toMatchObject({ role: "member" });
    // An address at another domain (even a subdomain) joins nothing.
    const dave = await app.signedUp("dave@sub.example.com");
    expect((await getJson(dave, "list")).body).toEqual({ organizations: [], suggested: [] });
  });

  it('"auto" does not take an address that is not proven', async () => {
    const { app } = await acmeWithDomain("auto");
    const carol = await app.signedUp("carol@example.com");
    const user = app.memory.users.get(carol.userId);
    if (!user) throw new Error("no user");
    user.emailVerified = null;
    expect((await getJson(carol, "list")).body).toEqual({ organizations: [], suggested: [] });
    expect((await postJson(carol, "join", { organizationId: [...app.orgs.organizations.keys()][0] as string })).status).toBe(404);
  });

  it('"suggest": listed in `suggested`; organization/join makes the user a member', async () => {
    const { app, id } = await acmeWithDomain("suggest");
    const carol = await app.signedUp("carol@example.com");
    const listed = await getJson(carol, "list");
    expect(listed.body.organizations).toEqual([]);
    expect(listed.body.suggested).toEqual([expect.objectContaining({ id })]);
    expect(await postJson(carol, "join", { organizationId: id })).toEqual({ status: 200, body: { organizationId: id, role: "member" } });
    expect((await getJson(carol, "list")).body).toEqual({
      organizations: [expect.objectContaining({ role: "member" })],
      suggested: [],
    });
    // Someone at another domain is offered nothing, and cannot join.
    const dave = await app.signedUp("dave@example.net");
    expect(await postJson(dave, "join", { organizationId: id })).toEqual({ status: 404, body: { error: "OrganizationNotFound" } });
  });

  it.each([
    ["off", true],
    ["auto", false],
    ["suggest", false],
  ] as const)('"%s" with the domain proven: %s — neither joins nor suggests', async (domainJoin, proven) => {
    const { app, id } = await acmeWithDomain(domainJoin, proven);
    const carol = await app.signedUp("carol@example.com");
    expect((await getJson(carol, "list")).body).toEqual({ organizations: [], suggested: [] });
    expect(await postJson(carol, "join", { organizationId: id })).toEqual({ status: 404, body: { error: "OrganizationNotFound" } });
    expect(await app.orgs.methods.getMember(id, carol.userId)).toBeNull();
  });
});

describe("who manages domains", () => {
  it("a member (not an admin) can list nothing and add, verify or remove nothing", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.com");
    const id = await organizationOf(ada, "acme");
    const domain = await claim(ada, id, "example.com");
    publish("_authlib-challenge.example.com", [domain.token]);
    await app.orgs.methods.createMember({ organizationId: id, userId: bob.userId, role: "member", createdAt: new Date() });
    const forbidden = { status: 403, body: { error: "OrganizationForbidden" } };
    expect(await getJson(bob, "domains", { organizationId: id })).toEqual(forbidden);
    expect(await postJson(bob, "domain-add", { organizationId: id, domain: "example.net" })).toEqual(forbidden);
    expect(await postJson(bob, "domain-verify", { organizationId: id, domainId: domain.id })).toEqual(forbidden);
    expect(await postJson(bob, "domain-remove", { organizationId: id, domainId: domain.id })).toEqual(forbidden);
    expect(app.orgs.domains.get(domain.id)?.verifiedAt).toBeNull();
    expect(app.orgs.domains.size).toBe(1);
    // Made an admin, the same member may.
    await app.orgs.methods.updateMember({ organizationId: id, userId: bob.userId, role: "admin" });
    expect((await postJson(bob, "domain-verify", { organizationId: id, domainId: domain.id })).status).toBe(200);
  });

  it("an owner of organization A cannot verify, remove or see organization B's domain by its id", async () => {
    const app = appWithDns();
    const ada = await app.signedUp("ada@example.com");
    const bob = await app.signedUp("bob@example.org");
    const a = await organizationOf(ada, "org-a");
    const b = await organizationOf(bob, "org-b");
    const theirs = await claim(bob, b, "example.org");
    publish("_authlib-challenge.example.org", [theirs.token]);
    const notFound = { status: 404, body: { error: "OrganizationNotFound" } };
    // Through her own organization, naming B's domain…
    expect(await postJson(ada, "domain-verify", { organizationId: a, domainId: theirs.id })).toEqual(notFound);
    expect(await postJson(ada, "domain-remove", { organizationId: a, domainId: theirs.id })).toEqual(notFound);
    // …or naming B itself, which she is not a member of.
    expect(await postJson(ada, "domain-verify", { organizationId: b, domainId: theirs.id })).toEqual(notFound);
    expect(await postJson(ada, "domain-remove", { organizationId: b, domainId: theirs.id })).toEqual(notFound);
    expect(await getJson(ada, "domains", { organizationId: b })).toEqual(notFound);
    expect(app.orgs.domains.get(theirs.id)).toMatchObject({ organizationId: b, verifiedAt: null });
  });
});
