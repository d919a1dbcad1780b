// What organizations (docs/organizations.md) cost a JWT session check: `Auth()` GET /session with
// `organizations: {}` and an active organization in every session (the session shows it with the member's
// role, read from the store within the session-control bound: a `Map` lookup between reads), against the same
// configuration without organizations. Both sides: JWT sessions, `revocation: "eventual"` on
// `memorySessionStore()`, 300 users in rotation; interleaved (bench/harness.mjs). The goal: ≤ 5 % more time
// per check. Part of `npm run bench`; also runs alone (needs only the built @authlib/core):
//   ROUNDS=9 node bench/organizations.mjs
import { pathToFileURL } from "node:url";
import { Auth, createAuth, memorySessionStore } from "@authlib/core";
import { check, credentialsConfig, get, ORIGIN, rotatingCheck, signIn } from "./credentials-users.mjs";
import { commit, machine } from "./environment.mjs";
import { formatTable, interleave } from "./harness.mjs";

/** How many users sign in on each side (fewer than the 1,000 decoded tokens core caches, as the registry rows). */
export const ORGANIZATION_USERS = 300;

/**
 * The organization methods of an adapter on plain maps, as few as the bench needs working (the others are
 * present, as the start-up check asks, and unused): one organization, its members, users made up from their ids.
 */
export function benchOrganizationStore() {
  const organizations = new Map();
  const members = new Map();
  const unused = () => {
    throw new Error("not used by the bench");
  };
  return {
    getUser: async (id) => ({ id, name: id, email: `${id}@example.com`, emailVerified: null }),
    getUserByEmail: async () => null,
    createOrganization: async (organization) => {
      const made = { ...organization, id: `org-${organizations.size + 1}` };
      organizations.set(made.id, made);
      return made;
    },
    getOrganization: async (id) => organizations.get(id) ?? null,
    getOrganizationBySlug: async (slug) => [...organizations.values()].find((o) => o.slug === slug) ?? null,
    updateOrganization: unused,
    deleteOrganization: unused,
    createMember: async (member) => {
      const made = { ...member, id: `member-${members.size + 1}` };
      members.set(`${member.organizationId}/${member.userId}`, made);
      return made;
    },
    getMember: async (organizationId, userId) => members.get(`${organizationId}/${userId}`) ?? null,
    listMembers: async (organizationId) => [...members.values()].filter((m) => m.organizationId === organizationId),
    listMembershipsByUser: async (userId) => [...members.values()].filter((m) => m.userId === userId),
    updateMember: unused,
    deleteMember: unused,
    createInvitation: unused,
    getInvitation: async () => null,
    listInvitations: async () => [],
    updateInvitation: unused,
    createDomain: unused,
    getDomain: async () => null,
    listDomainsByName: async () => [],
    listDomains: async () => [],
    updateDomain: unused,
    deleteDomain: unused,
  };
}

/** The two configurations: JWT sessions, eventual revocation on a memory registry; organizations on or off. */
function configs() {
  const session = () => ({ strategy: "jwt", store: memorySessionStore(), revocation: "eventual" });
  return {
    on: credentialsConfig({ session: session(), adapter: benchOrganizationStore(), organizations: {} }),
    off: credentialsConfig({ session: session() }),
  };
}

/**
 * Signs {@link ORGANIZATION_USERS} users in on each side; on the organizations side, each joins one
 * organization (the first user creates it) and makes it the session's active one. Checks that GET /session
 * shows it (on) and shows none (off). Returns the operation for {@link interleave}.
 */
export async function organizationOperations({ users = ORGANIZATION_USERS, log = () => {} } = {}) {
  const { on, off } = configs();
  log(`  signing ${users} users in on each side, with an active organization on the organizations side…`);
  const api = createAuth(on).api;
  const request = (cookie) => new Request(`${ORIGIN}/`, { headers: { cookie } });
  const onCookies = [];
  let organizationId;
  for (let i = 0; i < users; i++) {
    const cookie = await signIn(on, i);
    if (i === 0) organizationId = (await api.createOrganization(request(cookie), { name: "Acme", slug: "acme" })).organization.id;
    else await on.adapter.createMember({ organizationId, userId: `user-${i}`, role: "member", createdAt: new Date() });
    const { cookies } = await api.setActiveOrganization(request(cookie), { organizationId });
    const session = cookies.find((c) => c.name === "authlib.session-token");
    check(session !== undefined, `user ${i}'s active organization set no session cookie`);
    onCookies.push(`${session.name}=${session.value}`);
  }
  const offCookies = [];
  for (let i = 0; i < users; i++) offCookies.push(await signIn(off, i));
  for (const [i, cookie] of onCookies.entries()) {
    const shown = await (await Auth(get("session", cookie), on)).json();
    check(shown?.activeOrganizationId === organizationId, `user ${i}'s session shows no active organization`);
    check(shown?.activeOrganizationRole === (i === 0 ? "owner" : "member"), `user ${i}'s session shows the wrong role`);
  }
  const plain = await (await Auth(get("session", offCookies[0]), off)).json();
  check(plain?.user && plain.activeOrganizationId === undefined, "the session without organizations shows one");
  return [
    {
      name: `Auth() GET /session (JWT, eventual, ${users} users in rotation)`,
      ours: rotatingCheck(on, onCookies),
      theirs: rotatingCheck(off, offCookies),
    },
  ];
}

/** The row as a table (ratio: on / off throughput), with the cost per check and CPU per check. */
export function formatOrganizationsTable(rows) {
  const table = formatTable(rows, {
    operation: "session check",
    ours: "organizations on, active organization (ops/s)",
    theirs: "organizations off (ops/s)",
    ratio: "on / off",
  });
  const percent = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)} %`;
  const lines = rows.map(
    (row) =>
      `- ${percent((row.theirs / row.ours - 1) * 100)} time per check with organizations; CPU per check ${row.cpu.ours.toFixed(1)} µs on, ${row.cpu.theirs.toFixed(1)} µs off (${percent((row.cpu.ours / row.cpu.theirs - 1) * 100)}); checks made: ${row.calls.ours.toLocaleString("en")} on, ${row.calls.theirs.toLocaleString("en")} off`,
  );
  return `${table}\n\n${lines.join("\n")}`;
}

/** Measures the row: `rounds` interleaved rounds of `sliceMs` slices per side. */
export async function organizationsRun({ rounds = Number(process.env.ROUNDS ?? 9), sliceMs = 300, log = () => {} } = {}) {
  const operations = await organizationOperations({ log });
  log(`  measuring: ${rounds} rounds of ${sliceMs} ms slices per side…`);
  return interleave(operations, { rounds, sliceMs });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line) => process.stderr.write(`${line}\n`);
  const rows = await organizationsRun({ log });
  console.log(`# Organizations: the JWT session check with an active organization vs organizations off

- commit: ${commit()}
- date: ${new Date().toISOString()}
- machine: ${machine()}
- Node ${process.version}
- interleaved, ${Number(process.env.ROUNDS ?? 9)} rounds, median; goal: ≤ 5 % more time per check
`);
  console.log(formatOrganizationsTable(rows));
}
