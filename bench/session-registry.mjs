// What the session registry (issue 27, docs/sessions.md) costs a JWT session check: `Auth()` GET /session
// as the in-process "Auth() GET /session (JWT)" row does it, without a registry ("today") and with one
// (default `revocation: "eventual"` and `"strict"` on `memorySessionStore()`, and strict on
// `redisSessionStore` when that store is in the build and a Redis answers). Each registry mode is one row,
// measured against today interleaved (bench/harness.mjs), with slices long enough that each side makes at
// least 100,000 checks. Part of `npm run bench`; also runs alone (needs only the built @authlib/core):
//   node bench/session-registry.mjs
import { pathToFileURL } from "node:url";
import { Auth, createAuth, memorySessionStore } from "@authlib/core";
import { decode } from "@authlib/core/jwt";
import { check, credentialsConfig, get, rotatingCheck, SECRET, SESSION_COOKIE, signIn } from "./credentials-users.mjs";
import { commit, machine } from "./environment.mjs";
import { formatTable, interleave, median, slice } from "./harness.mjs";

/** The load goal: at least this many session checks per side of each row. */
export const REGISTRY_CHECKS = 100_000;

/**
 * How many users sign in on each side, whose cookies the checks rotate through. Fewer than the 1,000
 * decoded tokens core caches, so every check after the first of each cookie skips the decryption: what
 * is left of a check is mostly what the registry adds to it, the least favourable case for the registry.
 */
export const REGISTRY_USERS = 300;

/** The configuration of one side: the in-process JWT row's, with `session` added when given. */
const configOf = (session) => credentialsConfig(session ? { session } : {});

/**
 * Signs `users` users in on `config` and checks every cookie once: GET /session must answer that user,
 * and, with a registry, the token must carry its record's id (`sid`). Returns the cookies.
 */
async function signedInCookies(config, users, registered) {
  const cookies = [];
  for (let i = 0; i < users; i++) cookies.push(await signIn(config, i));
  for (const [i, cookie] of cookies.entries()) {
    const session = await (await Auth(get("session", cookie), config)).json();
    check(session?.user?.email === `user-${i}@example.com`, `GET /session of user ${i}`);
    const token = await decode({ token: cookie.slice(SESSION_COOKIE.length + 1), secret: SECRET, salt: SESSION_COOKIE });
    check(registered === (typeof token?.sid === "string"), `user ${i}'s token ${registered ? "lacks" : "has"} a sid`);
  }
  return cookies;
}

/**
 * The Redis session store when the build has `@authlib/core/session/redis` and a Redis answers at
 * `url`; otherwise `{ reason }`, which the run prints in place of the row.
 */
async function redisStore(url) {
  // A specifier in a variable: a bundler (vitest's) resolves a literal one ahead and fails when it is absent.
  const specifier = "@authlib/core/session/redis";
  let module;
  try {
    module = await import(/* @vite-ignore */ specifier);
  } catch (error) {
    return {
      reason: `\`@authlib/core/session/redis\` is not in this build (${error.code ?? error.message}): the strict Redis row is left out.`,
    };
  }
  if (typeof module.redisSessionStore !== "function") {
    return { reason: "`@authlib/core/session/redis` has no `redisSessionStore`: the strict Redis row is left out." };
  }
  const { createClient } = await import("redis");
  const client = createClient({ url, socket: { connectTimeout: 3000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    check((await client.ping()) === "PONG", "Redis PING");
  } catch (error) {
    if (client.isOpen) client.destroy();
    return { reason: `No Redis answered at ${new URL(url).host} (${error.message}): the strict Redis row is left out.` };
  }
  return { store: module.redisSessionStore({ client }), close: async () => client.destroy() };
}

/**
 * Signs {@link REGISTRY_USERS} users in on each side and builds one operation per registry mode for
 * {@link measureRegistry}: `ours` is the check with the registry, `theirs` the same check today (one
 * configuration without a registry, shared by every row; each row rotates through its cookies with a
 * counter of its own). `redisUrl: null` leaves the Redis row out without trying.
 *
 * @param {{ users?: number, redisUrl?: string | null, log?: (line: string) => void }} [options]
 * @returns {Promise<{ operations: Array<{ name: string, users: number, ours: () => Promise<Response>, theirs: () => Promise<Response> }>, notes: string[], close: () => Promise<void> }>}
 */
export async function registryOperations({
  users = REGISTRY_USERS,
  redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379",
  log = () => {},
} = {}) {
  const notes = [];
  const today = configOf();
  const sides = [
    { name: "eventual (memory store)", config: configOf({ store: memorySessionStore() }) },
    { name: "strict (memory store)", config: configOf({ store: memorySessionStore(), revocation: "strict" }) },
  ];
  let redis = null;
  if (redisUrl !== null) {
    redis = await redisStore(redisUrl);
    if (redis.store) sides.push({ name: "strict (Redis)", config: configOf({ store: redis.store, revocation: "strict" }) });
    else notes.push(redis.reason);
  }
  log(`  signing ${users} users in on each of ${sides.length + 1} configurations…`);
  const todayCookies = await signedInCookies(today, users, false);
  const operations = [];
  for (const side of sides) {
    const cookies = await signedInCookies(side.config, users, true);
    operations.push({ name: side.name, users, ours: rotatingCheck(side.config, cookies), theirs: rotatingCheck(today, todayCookies) });
  }
  const close = async () => {
    const redisSide = sides.find((side) => side.name === "strict (Redis)");
    if (redisSide) {
      // The records go through the API, so the run leaves no keys behind whatever layout the store uses.
      const api = createAuth(redisSide.config).api;
      for (let i = 0; i < users; i++) await api.revokeUserSessions({ userId: `user-${i}` });
    }
    await redis?.close?.();
  };
  return { operations, notes, close };
}

/**
 * Measures each operation with {@link interleave}, its slices sized so that each side makes at least
 * `checks` calls over the rounds: the slower side's median throughput over three warm-up slices sets the
 * slice length (with a quarter to spare), and a row that still falls short is measured again with longer slices (up to
 * `attempts` times; the row then keeps its counts, so a shortfall shows in the table). Each row gains
 * `checks` (the goal), `sliceMs`, `attempts` and the operation's `users`.
 *
 * @param {Array<{ name: string, users?: number, ours: () => unknown, theirs: () => unknown }>} operations
 * @param {{ checks?: number, rounds?: number, warmupMs?: number, attempts?: number, onRow?: (row: object) => void, log?: (line: string) => void }} [options]
 */
export async function measureRegistry(
  operations,
  { checks = REGISTRY_CHECKS, rounds = 9, warmupMs = 300, attempts = 3, onRow, log = () => {} } = {},
) {
  const rows = [];
  for (const operation of operations) {
    // Three sizing slices per side, alternating, and their median: one slice that a burst of other work on
    // the machine slowed would otherwise make every slice of the row (and the row) many times longer.
    const sizing = [[], []];
    for (let i = 0; i < 3; i++) {
      sizing[0].push(await slice(operation.ours, warmupMs));
      sizing[1].push(await slice(operation.theirs, warmupMs));
    }
    const slowest = Math.min(median(sizing[0]), median(sizing[1]));
    let sliceMs = Math.max(1, Math.ceil(((1.25 * checks) / rounds / slowest) * 1000));
    for (let attempt = 1; ; attempt++) {
      log(`  ${operation.name}: ${rounds} rounds of ${sliceMs} ms slices per side (attempt ${attempt})…`);
      const [row] = await interleave([operation], { rounds, sliceMs, warmupMs });
      const fewest = Math.min(row.calls.ours, row.calls.theirs);
      if (fewest >= checks || attempt === attempts) {
        Object.assign(row, { checks, sliceMs, attempts: attempt, users: operation.users });
        rows.push(row);
        onRow?.(row);
        break;
      }
      sliceMs = Math.ceil(sliceMs * (checks / fewest) * 1.25);
    }
  }
  return rows;
}

/**
 * The rows as the other benches print theirs (bench/harness.mjs's table, with this bench's headings: the
 * ratio is registry / today throughput, below 1 when the registry costs), then per row the cost per check
 * over today (today's throughput / the registry's − 1), the process's CPU time per check of each side
 * (steadier than wall-clock time when other processes share the machine), and the checks each side made.
 */
export function formatRegistryTable(rows) {
  const table = formatTable(rows, {
    operation: `JWT session check (Auth() GET /session, ${(rows[0]?.users ?? REGISTRY_USERS).toLocaleString("en")} users in rotation)`,
    ours: "with registry (ops/s)",
    theirs: "today, no registry (ops/s)",
    ratio: "registry / today",
  });
  const count = (n) => n.toLocaleString("en");
  const lines = rows.map((row) => {
    const percent = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)} %`;
    const short = Math.min(row.calls.ours, row.calls.theirs) < row.checks ? ` (short of ${count(row.checks)})` : "";
    const cpu = `CPU per check ${row.cpu.ours.toFixed(1)} µs with the registry, ${row.cpu.theirs.toFixed(1)} µs today (${percent((row.cpu.ours / row.cpu.theirs - 1) * 100)})`;
    return `- ${row.operation}: ${percent((row.theirs / row.ours - 1) * 100)} time per check over today; ${cpu}; checks made: ${count(row.calls.ours)} with the registry, ${count(row.calls.theirs)} today${short}`;
  });
  return `${table}\n\n${lines.join("\n")}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line) => process.stderr.write(`${line}\n`);
  console.log(`# Session registry: JWT session checks without and with a registry

- commit: ${commit()}
- date: ${new Date().toISOString()}
- machine: ${machine()}
- Node ${process.version}
- interleaved: each row is its registry mode against today, ${REGISTRY_CHECKS.toLocaleString("en")}+ checks per side, 9 rounds, median
`);
  log("session registry: signing in, then measuring (≥ 100,000 checks per side and row)…");
  const { operations, notes, close } = await registryOperations({ log });
  try {
    const rows = await measureRegistry(operations, {
      log,
      onRow: (row) => log(`  ${row.operation}: ${row.ratio.toFixed(2)}x of today (${row.sliceMs} ms slices)`),
    });
    console.log(formatRegistryTable(rows));
    for (const note of notes) console.log(`\n${note}`);
  } finally {
    await close();
  }
}
