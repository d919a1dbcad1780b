// The HTTP run: the two minimal Qwik City apps in bench/http (ours with @authlib/qwik, the reference with
// @auth/qwik, the same configuration), built with Vite, served by Qwik City's node middleware on
// 127.0.0.1 in their own processes, both up at once, and hit with autocannon in bounded runs that
// alternate between the apps. Per route: the median req/s, p50 and p99 over the rounds; per app: the peak
// RSS of its server process (VmHWM) at the end.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { median } from "./harness.mjs";
import { CLAIMS, sessionCookies } from "./inprocess.mjs";

const HTTP_DIR = fileURLToPath(new URL("./http/", import.meta.url));
const VITE = fileURLToPath(new URL("../node_modules/vite/bin/vite.js", import.meta.url));

/** The routes measured; `expect` says what a correct answer contains (checked once before measuring). */
export const ROUTES = [
  { name: "GET /auth/session (with session cookie)", path: "/auth/session", expect: CLAIMS.email },
  { name: "page that renders the session", path: "/session/", expect: CLAIMS.email },
  { name: "page that does not use the session", path: "/", expect: "does not use the session" },
];

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} in ${cwd} failed:\n${output}`))));
  });
}

/** Builds one app (client, then the node-server SSR build), as its own `npm run build` would. */
async function build(app) {
  const cwd = `${HTTP_DIR}${app}`;
  await run(process.execPath, [VITE, "build"], cwd);
  await run(process.execPath, [VITE, "build", "-c", "adapters/vite.config.ts"], cwd);
}

/** Starts one app's server on a free port; resolves when it listens. */
function start(app) {
  return serve(["server/entry.node-server.js"], `${HTTP_DIR}${app}`).then((server) => ({ app, ...server }));
}

/**
 * Starts `node <args>` in `cwd` (production mode, `PORT=0`) as a server that prints `listening <port>`
 * (or `listening <port> <port>…` for one that listens on several); resolves with the child, the URL of its
 * first port, `http://127.0.0.1:<port>`, and the URLs of all of them, once it does.
 */
export function serve(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, PORT: "0", NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffered = "";
    child.stdout.on("data", (data) => {
      buffered += data;
      const match = /listening (\d+(?: \d+)*)\n/.exec(buffered);
      if (!match) return;
      const urls = match[1].split(" ").map((port) => `http://127.0.0.1:${port}`);
      resolve({ child, url: urls[0], urls });
    });
    child.on("exit", (code) => reject(new Error(`node ${args.join(" ")} exited (${code}) before listening`)));
  });
}

/** Peak resident set size of a process in MB (Linux VmHWM), or null where /proc is not available. */
function peakRssMb(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * One autocannon run against `url` for `duration` seconds over `connections` connections, with `cookie`
 * on every request, or with a list of cookies sent in rotation (so a per-cookie cache never helps).
 */
export function cannon(url, cookie, { duration, connections }) {
  const options = { url, duration, connections };
  if (Array.isArray(cookie)) {
    let next = 0;
    options.requests = [
      { setupRequest: (request) => ({ ...request, headers: { ...request.headers, cookie: cookie[next++ % cookie.length] } }) },
    ];
  } else options.headers = { cookie };
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Runs `measure(side)` for each side `rounds` times, rotating which side goes first, after one
 * `warm(side)` each; returns each side's results in order. A result with errors or non-2xx answers fails.
 */
export async function alternate(sides, { rounds, measure, warm }) {
  for (const side of sides) await warm(side);
  const samples = Object.fromEntries(sides.map((side) => [side, []]));
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => sides[(i + round) % sides.length]);
    for (const side of order) {
      const result = await measure(side);
      if (result.errors || result.non2xx) throw new Error(`${side}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
      samples[side].push(result);
    }
  }
  return samples;
}

/**
 * Builds and serves both apps, measures every route `rounds` times per app (alternating which app goes
 * first), and returns one row per route and app plus the peak RSS of each server.
 */
export async function httpRun({ rounds = 3, duration = 5, connections = 10, warmup = 1, log = () => {} } = {}) {
  log("building the two Qwik City apps (bench/http/ours, bench/http/theirs)…");
  await build("ours");
  await build("theirs");
  const cookies = await sessionCookies();
  const servers = { ours: await start("ours"), theirs: await start("theirs") };
  try {
    for (const route of ROUTES) {
      for (const side of ["ours", "theirs"]) {
        const response = await fetch(servers[side].url + route.path, { headers: { cookie: cookies[side] } });
        const text = await response.text();
        if (response.status !== 200 || !text.includes(route.expect)) {
          throw new Error(`bench setup: ${side} ${route.path} answered ${response.status}: ${text.slice(0, 200)}`);
        }
      }
    }
    const rows = [];
    for (const route of ROUTES) {
      const samples = await alternate(["ours", "theirs"], {
        rounds,
        warm: (side) => cannon(servers[side].url + route.path, cookies[side], { duration: warmup, connections }),
        measure: (side) => cannon(servers[side].url + route.path, cookies[side], { duration, connections }),
      });
      const summary = (list) => ({
        rps: median(list.map((s) => s.requests.average)),
        p50: median(list.map((s) => s.latency.p50)),
        p99: median(list.map((s) => s.latency.p99)),
      });
      const row = { route: route.name, ours: summary(samples.ours), theirs: summary(samples.theirs) };
      row.ratio = row.ours.rps / row.theirs.rps;
      rows.push(row);
      log(`  ${route.name}: ${row.ratio.toFixed(2)}x`);
    }
    return {
      rows,
      rss: { ours: peakRssMb(servers.ours.child.pid), theirs: peakRssMb(servers.theirs.child.pid) },
      connections,
      duration,
      rounds,
    };
  } finally {
    for (const { child } of Object.values(servers)) child.kill("SIGTERM");
  }
}
