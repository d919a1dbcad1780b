// What verifying an API key costs (`auth.api.verifyApiKey`, docs/api-keys.md) against authlib's session check
// (`getSession` of a JWT session cookie), interleaved (bench/harness.mjs: warm-up, alternating slices,
// median), both rotating through 300 users' credentials. Two rows of verification: with the in-instance
// cache (JWT sessions, eventual revocation: a key read is trusted for `revalidateAfter`), and with every
// verification reading the store (`revocation: "strict"`; an in-memory store here, so the row is the
// library's own cost, not a database's). The session side runs under the same rule on `memorySessionStore()`
// (strict: a registry read per check). The per-key rate limit counts on the memory store (a limit no run
// reaches). And the timing of the two refusals an attacker compares: an unknown key id vs a known id with a
// wrong secret, interleaved, reported as a ratio (1: indistinguishable); with the cache a known id answers
// without a store read, so both rows are shown. A bench, not a test: nothing is asserted about time.
//   ROUNDS=9 node bench/api-key-verify.mjs
import { pathToFileURL } from "node:url";
import { createAuth, getSession, memorySessionStore } from "@authlib/core";
import { check, credentialsConfig, ORIGIN, signIn } from "./credentials-users.mjs";
import { commit, machine } from "./environment.mjs";
import { formatTable, interleave } from "./harness.mjs";

/** How many users (and keys) rotate on each side. */
export const USERS = 300;

/** The API-key methods on a plain map (records copied out, as a store would). */
function memoryKeys() {
  const keys = new Map();
  const copy = (record) => (record ? structuredClone(record) : null);
  return {
    createApiKey: (record) => {
      keys.set(record.id, structuredClone(record));
      return copy(record);
    },
    getApiKey: (id) => copy(keys.get(id)),
    listApiKeysByUser: (userId) => [...keys.values()].filter((k) => k.userId === userId).map(copy),
    listApiKeysByOrganization: (organizationId) => [...keys.values()].filter((k) => k.organizationId === organizationId).map(copy),
    revokeApiKey: (id, at) => {
      const key = keys.get(id);
      if (key && key.revokedAt === null) key.revokedAt = at;
    },
    revokeApiKeysByUser: () => {},
    touchApiKey: (id, usedAt, minInterval) => {
      const key = keys.get(id);
      if (!key || (key.lastUsedAt && key.lastUsedAt.getTime() > usedAt.getTime() - minInterval)) return false;
      key.lastUsedAt = usedAt;
      return true;
    },
  };
}

/** A key with the same public id and checksum rules but another secret, or another (unknown) id. */
function altered(key, part) {
  const body = key.slice("bench_".length);
  const flip = (text, at) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
  const id = part === "id" ? flip(body.slice(0, 16), 0) : body.slice(0, 16);
  const secret = part === "secret" ? flip(body.slice(16, 48), 0) : body.slice(16, 48);
  return { id, secret };
}

/** The configuration and its signed-in users' requests, keys made through `auth.api.createApiKey`. */
async function setUp(revocation, log, users) {
  const config = credentialsConfig({
    adapter: memoryKeys(),
    session: { strategy: "jwt", store: memorySessionStore(), revocation },
    apiKeys: { prefix: "bench", scopes: { "projects:read": { description: "Read projects" } } },
    rateLimit: { apiKeys: { perKeyMax: 1_000_000_000, windowSeconds: 60 } },
    logger: { error: (error) => console.error(error), warn: () => {}, debug: () => {} },
  });
  const auth = createAuth(config);
  log(`  signing ${users} users in and making their keys (${revocation} revocation)…`);
  const pages = [];
  const keys = [];
  for (let i = 0; i < users; i++) {
    const cookie = await signIn(config, i);
    pages.push(new Request(`${ORIGIN}/dashboard`, { headers: { cookie } }));
    const { key } = await auth.api.createApiKey(new Request(`${ORIGIN}/app`, { headers: { cookie } }), {
      name: `key ${i}`,
      scopes: ["projects:read"],
    });
    keys.push(key);
  }
  const { formatKey } = await import("../packages/core/dist/features/api-keys/key-format.js");
  const bearer = (key) => new Request(`${ORIGIN}/api/projects`, { headers: { authorization: `Bearer ${key}` } });
  const valid = keys.map(bearer);
  const wrongSecret = keys.map((key) => bearer(formatKey("bench", altered(key, "secret"))));
  const unknownId = keys.map((key) => bearer(formatKey("bench", altered(key, "id"))));
  for (const i of [0, users - 1]) {
    check((await auth.api.verifyApiKey(valid[i], { scopes: ["projects:read"] })).userId === `user-${i}`, `key ${i} did not verify`);
    for (const request of [wrongSecret[i], unknownId[i]]) {
      const refusal = await auth.api.verifyApiKey(request).catch((error) => error.type);
      check(refusal === "InvalidApiKey", `an altered key ${i} was answered ${JSON.stringify(refusal)}`);
    }
    const { data } = await getSession(pages[i], config);
    check(data?.user?.email === `user-${i}@example.com`, `getSession of user ${i} gave ${JSON.stringify(data)}`);
  }
  return { auth, config, pages, valid, wrongSecret, unknownId };
}

function rotation(list, call) {
  let next = 0;
  return () => {
    const item = list[next];
    next = (next + 1) % list.length;
    return call(item);
  };
}

const refused = (auth) => (request) =>
  auth.api.verifyApiKey(request).then(
    () => {
      throw new Error("an altered key verified");
    },
    (error) => error.type,
  );

/** The operations for {@link interleave}: verification vs the session check, then the two refusals. */
export async function apiKeyOperations({ users = USERS, log = () => {} } = {}) {
  const cached = await setUp("eventual", log, users);
  const strict = await setUp("strict", log, users);
  const verify = (auth) => (request) => auth.api.verifyApiKey(request, { scopes: ["projects:read"] });
  const session = (config) => (page) => getSession(page, config);
  return {
    speed: [
      {
        name: `verifyApiKey (cache within revalidateAfter) vs getSession (JWT), ${users} users`,
        ours: rotation(cached.valid, verify(cached.auth)),
        theirs: rotation(cached.pages, session(cached.config)),
      },
      {
        name: `verifyApiKey (a store read each, strict) vs getSession (JWT), ${users} users`,
        ours: rotation(strict.valid, verify(strict.auth)),
        theirs: rotation(strict.pages, session(strict.config)),
      },
    ],
    timing: [
      {
        name: "refusals, strict (both read the store): unknown id vs known id with a wrong secret",
        ours: rotation(strict.unknownId, refused(strict.auth)),
        theirs: rotation(strict.wrongSecret, refused(strict.auth)),
      },
      {
        name: "refusals, with the cache (a known id is not read again): unknown id vs wrong secret",
        ours: rotation(cached.unknownId, refused(cached.auth)),
        theirs: rotation(cached.wrongSecret, refused(cached.auth)),
      },
    ],
  };
}

/** The speed rows as a table (ratio: verifications / session checks per second). */
export function formatApiKeyTable(rows) {
  return formatTable(rows, { operation: "check", ours: "verifyApiKey (ops/s)", theirs: "getSession (ops/s)", ratio: "key / session" });
}

/** The timing rows as a table (ratio: unknown-id refusals / wrong-secret refusals per second; 1 is indistinguishable). */
export function formatRefusalTable(rows) {
  return formatTable(rows, { operation: "refusal", ours: "unknown id (ops/s)", theirs: "wrong secret (ops/s)", ratio: "unknown / wrong" });
}

/** Measures both sets: `rounds` interleaved rounds of `sliceMs` slices per side. */
export async function apiKeyRun({ rounds = Number(process.env.ROUNDS ?? 9), sliceMs = 300, log = () => {} } = {}) {
  const { speed, timing } = await apiKeyOperations({ log });
  log(`  measuring: ${rounds} rounds of ${sliceMs} ms slices per side…`);
  return { speed: await interleave(speed, { rounds, sliceMs }), timing: await interleave(timing, { rounds, sliceMs }) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line) => process.stderr.write(`${line}\n`);
  const { speed, timing } = await apiKeyRun({ log });
  console.log(`# API key verification vs authlib's session check

- commit: ${commit()}
- date: ${new Date().toISOString()}
- machine: ${machine()}
- Node ${process.version}
- interleaved, ${Number(process.env.ROUNDS ?? 9)} rounds, median
`);
  console.log(formatApiKeyTable(speed));
  console.log("\n## The two refusals an attacker compares (interleaved)\n");
  console.log(formatRefusalTable(timing));
}
