/**
 * `authlib org verify-domains` as users run it: the built executable in a child process (run `npm run
 * build` first), with an app's config module whose adapter keeps its domains in a JSON file and whose
 * `organizations.resolveTxt` asks a real DNS server on 127.0.0.1 (npm `dns2`, started here). The proofs
 * whose record is gone are taken back (exit 0); a failing resolver keeps them and exits 1.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAuthlib, type TempApp, tempApp } from "../helpers/cli.js";
import { startTxtServer, type TxtServer } from "../helpers/dns-server.js";

/**
 * The config module: every organization method the start-up check asks for; the domain ones over
 * `domains.json` (what the test reads back), the others unused by the re-check.
 */
const CONFIG_MODULE = `import { readFileSync, writeFileSync } from "node:fs";
import { promises as dns } from "node:dns";

const file = new URL("./domains.json", import.meta.url);
const read = () => JSON.parse(readFileSync(file, "utf8")).map((d) => ({ ...d, createdAt: new Date(d.createdAt), verifiedAt: d.verifiedAt && new Date(d.verifiedAt) }));
const unused = () => { throw new Error("not used by the re-check"); };
const resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
resolver.setServers(["127.0.0.1:" + process.env.DNS_PORT]);

const adapter = {
  getUser: async () => null, getUserByEmail: async () => null,
  createOrganization: unused, getOrganization: async () => null, getOrganizationBySlug: async () => null,
  updateOrganization: unused, deleteOrganization: unused, createMember: unused, getMember: async () => null,
  listMembers: async () => [], listMembershipsByUser: async () => [], updateMember: unused, deleteMember: unused,
  createInvitation: unused, getInvitation: async () => null, listInvitations: async () => [], updateInvitation: unused,
  createDomain: unused, deleteDomain: unused,
  getDomain: async (id) => read().find((d) => d.id === id) ?? null,
  listDomainsByName: async (name) => read().filter((d) => d.name === name),
  listDomains: async (organizationId) => read().filter((d) => organizationId === undefined || d.organizationId === organizationId),
  updateDomain: async (changes) => {
    const domains = read().map((d) => (d.id === changes.id ? { ...d, ...changes } : d));
    writeFileSync(file, JSON.stringify(domains));
    return domains.find((d) => d.id === changes.id);
  },
};

export const authConfig = {
  providers: [],
  secret: "cli-org-test-secret-0123456789abcdefghijk",
  adapter,
  // The app's own users and sessions are elsewhere in this fixture: JWT sessions need no adapter methods.
  session: { strategy: "jwt" },
  organizations: { resolveTxt: (name) => resolver.resolveTxt(name) },
  events: { organizationChanged: (message) => console.log("event " + message.change + " " + message.targetId) },
};
`;

const domain = (id: string, name: string, verified: boolean) => ({
  id,
  organizationId: "org-1",
  name,
  token: `authlib-verify=${id.padEnd(32, "0")}`,
  verifiedAt: verified ? "2026-11-01T00:00:00.000Z" : null,
  createdAt: "2026-11-01T00:00:00.000Z",
});

describe("authlib org verify-domains", () => {
  let app: TempApp;
  let dns: TxtServer;
  beforeAll(async () => {
    app = await tempApp();
    dns = await startTxtServer();
    await writeFile(join(app.dir, "auth.config.mjs"), CONFIG_MODULE);
  });
  afterAll(async () => {
    await dns.close();
    await app.remove();
  });
  const run = (args: string[]) => runAuthlib(["org", ...args], { cwd: app.dir, env: { DNS_PORT: String(dns.port) } });
  const stored = async () =>
    (JSON.parse(await readFile(join(app.dir, "domains.json"), "utf8")) as Array<{ name: string; verifiedAt: string | null }>).map(
      ({ name, verifiedAt }) => ({ name, proven: verifiedAt !== null }),
    );

  it("takes back the proof of a domain whose record is gone, keeps the others, exit 0", async () => {
    const kept = domain("a1", "example.com", true);
    await writeFile(
      join(app.dir, "domains.json"),
      JSON.stringify([kept, domain("b2", "example.net", true), domain("c3", "unproven.example", false)]),
    );
    dns.records.set("_authlib-challenge.example.com", [[kept.token]]);
    const result = await run(["verify-domains", "--config", "auth.config.mjs"]);
    expect(result).toEqual({
      code: 0,
      stdout: "event domainUnverified b2\nauthlib org verify-domains: 2 proven domains checked.\nunverified: example.net\nfailed: none\n",
      stderr: "",
    });
    expect(await stored()).toEqual([
      { name: "example.com", proven: true },
      { name: "example.net", proven: false },
      { name: "unproven.example", proven: false },
    ]);
    // Run again: nothing changes.
    expect((await run(["verify-domains", "--config", "auth.config.mjs"])).stdout).toBe(
      "authlib org verify-domains: 1 proven domain checked.\nunverified: none\nfailed: none\n",
    );
  });

  it("keeps the proof when the resolver fails, and exits 1", async () => {
    await writeFile(join(app.dir, "domains.json"), JSON.stringify([domain("a1", "example.com", true)]));
    dns.failing = true;
    try {
      const result = await run(["verify-domains", "--config", "auth.config.mjs"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("authlib org verify-domains: 1 proven domain checked.\nunverified: none\nfailed: example.com\n");
      expect(result.stderr).toBe("authlib: the DNS lookup of 1 domain failed; their proof is kept. Run it again later.\n");
      expect(await stored()).toEqual([{ name: "example.com", proven: true }]);
    } finally {
      dns.failing = false;
    }
  });

  it("usage: no --config or an unknown subcommand is exit 2; --help is exit 0; organizations off is exit 1", async () => {
    expect((await run(["verify-domains"])).code).toBe(2);
    const unknown = await run(["verify-everything"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown org command "verify-everything"');
    const help = await run(["--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/^Usage: authlib org verify-domains --config <module>/);
    await writeFile(join(app.dir, "plain.config.mjs"), `export default { providers: [], secret: "x".repeat(40) };\n`);
    const off = await run(["verify-domains", "--config", "plain.config.mjs"]);
    expect(off).toEqual({
      code: 1,
      stdout: "",
      stderr: "authlib: plain.config.mjs does not turn organizations on (`organizations: {}`): there are no domains to check.\n",
    });
    expect((await runAuthlib(["help"])).stdout).toContain("org verify-domains");
  });
});
