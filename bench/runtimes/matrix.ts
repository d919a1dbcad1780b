/**
 * The runtime matrix: bundles the smoke with plain esbuild (`platform: "neutral"`, nothing external) and runs
 * that bundle on Node, Deno, Bun and workerd, each from its npm package (root devDependencies). Used by
 * `bench/test/runtimes.test.ts`; `npx tsx bench/runtimes/matrix.ts` runs it alone and prints the table.
 *
 * @module bench/runtimes/matrix
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build } from "esbuild";
import { RESULT_MARKER } from "./marker.js";
import type { CheckResult } from "./smoke.js";

const here = dirname(fileURLToPath(import.meta.url));
const requireFromRoot = createRequire(join(here, "..", "..", "package.json"));

/** Longest a runtime may take to start, run every check and exit. */
export const RUNTIME_TIMEOUT_MS = 25_000;

/** workerd's date: recent enough for `Response.json`/`getSetCookie`, not after the bundled workerd's own. */
export const WORKERD_COMPATIBILITY_DATE = "2026-04-01";

/** The two bundles: a script for Node/Deno/Bun and a module worker for workerd. */
export interface Bundles {
  dir: string;
  script: string;
  worker: string;
}

/** What one runtime did: its version, its check results, or why it did not run. */
export type RuntimeOutcome =
  | { status: "ran"; version: string; results: CheckResult[]; ms: number }
  | { status: "failed"; version: string; reason: string; ms: number }
  | { status: "unavailable"; reason: string };

export interface Runtime {
  name: "node" | "deno" | "bun" | "workerd";
  run(bundles: Bundles): Promise<RuntimeOutcome>;
}

/**
 * Bundles the smoke exactly as an app's bundler would for an unknown runtime: `--platform=neutral`, ESM,
 * no externals, and `mainFields` module then main (with neutral, esbuild reads no `main` field by default,
 * and `cookie` is a CommonJS package with only `main`). A `node:` import anywhere on the path fails the build here, which is the point.
 * `extra` is for experiments (e.g. `{ platform: "node" }` to see the runtimes run a Node-only build);
 * the matrix itself passes nothing.
 */
export async function buildBundles(extra: BuildOptions = {}): Promise<Bundles> {
  const dir = await mkdtemp(join(tmpdir(), "authlib-runtimes-"));
  const common = {
    bundle: true,
    platform: "neutral",
    mainFields: ["module", "main"],
    format: "esm",
    target: "es2022",
    logLevel: "silent",
    absWorkingDir: here,
    ...extra,
  } as const;
  const script = join(dir, "smoke.mjs");
  const worker = join(dir, "worker.mjs");
  try {
    await build({ ...common, entryPoints: [join(here, "cli-entry.ts")], outfile: script });
    await build({ ...common, entryPoints: [join(here, "worker-entry.ts")], outfile: worker });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, script, worker };
}

/** Removes the bundles' folder. */
export async function removeBundles(bundles: Bundles): Promise<void> {
  await rm(bundles.dir, { recursive: true, force: true });
}

interface Exec {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a program with a deadline; the whole process group is killed when it passes. */
function exec(command: string, args: string[], cwd: string, timeoutMs = RUNTIME_TIMEOUT_MS): Promise<Exec> {
  return new Promise((resolve, reject) => {
    // No tty, no update checks or telemetry: a runtime must not wait on anything but the smoke.
    const env = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DO_NOT_TRACK: "1" };
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The binary an npm package installs (its `bin` entry), or why it is not usable on this machine. */
async function packageBinary(pkg: string, bin: string): Promise<{ path: string; version: string } | { reason: string }> {
  let path: string;
  try {
    const manifestPath = requireFromRoot.resolve(`${pkg}/package.json`);
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
    const relative = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[bin];
    if (!relative) return { reason: `the ${pkg} package declares no \`${bin}\` binary` };
    path = join(dirname(manifestPath), relative);
  } catch {
    return { reason: `the ${pkg} package is not installed (a root devDependency: run npm install)` };
  }
  try {
    const probe = await exec(path, ["--version"], here, 20_000);
    if (probe.code !== 0) {
      return { reason: `${pkg}'s binary did not run here (exit ${probe.code}): ${(probe.stderr || probe.stdout).trim().slice(0, 300)}` };
    }
    // "deno 2.9.6 (stable, …)", "1.4.5", "workerd 2026-04-26": the version alone.
    const words = (probe.stdout.trim().split("\n")[0] ?? "").split(/\s+/);
    return { path, version: (words[0] === bin ? words[1] : words[0]) ?? "" };
  } catch (error) {
    return { reason: `${pkg}'s binary did not run here: ${(error as Error).message}` };
  }
}

/** Reads the results line a script runtime printed, or says what went wrong instead. */
function scriptOutcome(version: string, run: Exec, ms: number): RuntimeOutcome {
  const line = run.stdout.split("\n").find((l) => l.startsWith(RESULT_MARKER));
  if (run.timedOut) return { status: "failed", version, reason: `no result within ${RUNTIME_TIMEOUT_MS / 1000} s`, ms };
  if (run.code !== 0 || !line) {
    const output = `${run.stderr}\n${run.stdout}`.trim().slice(-1500);
    return { status: "failed", version, reason: `exit ${run.code}, no result line:\n${output}`, ms };
  }
  return { status: "ran", version, results: JSON.parse(line.slice(RESULT_MARKER.length)) as CheckResult[], ms };
}

/** A runtime that runs the script bundle as `<binary> ...args <bundle>`. */
function scriptRuntime(name: Runtime["name"], pkg: string, bin: string, args: string[]): Runtime {
  return {
    name,
    async run(bundles) {
      const binary = await packageBinary(pkg, bin);
      if ("reason" in binary) return { status: "unavailable", reason: binary.reason };
      const start = performance.now();
      // The bundles' own folder as cwd: no package.json or node_modules a runtime could pick up instead.
      const run = await exec(binary.path, [...args, bundles.script], bundles.dir);
      return scriptOutcome(`${name} ${binary.version}`, run, Math.round(performance.now() - start));
    },
  };
}

/** Node runs as the test runner does (`process.execPath`): the version CI pins. */
const node: Runtime = {
  name: "node",
  async run(bundles) {
    const start = performance.now();
    const run = await exec(process.execPath, [bundles.script], bundles.dir);
    return scriptOutcome(`node ${process.version}`, run, Math.round(performance.now() - start));
  },
};

/**
 * workerd through miniflare (which starts the workerd binary from the `workerd` npm package) on a
 * loopback port it picks. No `nodejs_compat` flag: the bundle must run on plain workerd.
 */
const workerd: Runtime = {
  name: "workerd",
  async run(bundles) {
    let Miniflare: typeof import("miniflare").Miniflare;
    try {
      ({ Miniflare } = await import("miniflare"));
    } catch (error) {
      return { status: "unavailable", reason: `miniflare is not installed (a root devDependency): ${(error as Error).message}` };
    }
    const binary = await packageBinary("workerd", "workerd");
    if ("reason" in binary) return { status: "unavailable", reason: binary.reason };
    const version = `workerd ${binary.version}`;
    const start = performance.now();
    const elapsed = () => Math.round(performance.now() - start);
    let mf: InstanceType<typeof Miniflare> | undefined;
    let output = "";
    const withOutput = (reason: string) => (output.trim() ? `${reason}\nworkerd said:\n${output.trim().slice(-1500)}` : reason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no result within ${RUNTIME_TIMEOUT_MS / 1000} s`)), RUNTIME_TIMEOUT_MS);
      });
      // Raced below; between races (reading the body) a late rejection must not go unhandled.
      deadline.catch(() => undefined);
      mf = new Miniflare({
        // One ES module named from the bundles' folder: by default miniflare names a module relative to
        // the working directory, and workerd refuses a name that climbs out with "..".
        modulesRoot: bundles.dir,
        modules: [{ type: "ESModule", path: bundles.worker, contents: await readFile(bundles.worker, "utf8") }],
        compatibilityDate: WORKERD_COMPATIBILITY_DATE,
        compatibilityFlags: [],
        host: "127.0.0.1",
        port: 0,
        // No request to Cloudflare for `request.cf` data: the matrix runs offline.
        cf: false,
        // workerd's own output (the worker's console) is kept for the failure message, as for the others.
        handleRuntimeStdio(stdout, stderr) {
          stdout.on("data", (chunk) => {
            output += chunk;
          });
          stderr.on("data", (chunk) => {
            output += chunk;
          });
        },
      });
      // A worker that does not load (an unresolved import, a syntax error) rejects `ready`.
      await Promise.race([mf.ready, deadline]);
      const response = await Promise.race([mf.dispatchFetch("http://localhost/"), deadline]);
      const text = await response.text();
      if (response.status !== 200)
        return {
          status: "failed",
          version,
          reason: withOutput(`the worker answered ${response.status}: ${text.slice(0, 1500)}`),
          ms: elapsed(),
        };
      return { status: "ran", version, results: JSON.parse(text) as CheckResult[], ms: elapsed() };
    } catch (error) {
      return { status: "failed", version, reason: withOutput(`${(error as Error).name}: ${(error as Error).message}`), ms: elapsed() };
    } finally {
      clearTimeout(timer);
      await mf?.dispose().catch(() => undefined);
    }
  },
};

/** Every runtime of the matrix, in the order they run. */
export const RUNTIMES: Runtime[] = [
  node,
  // No permission flags: the smoke reads no file, env variable or network.
  scriptRuntime("deno", "deno", "deno", ["run", "--no-prompt", "--no-config", "--no-lock"]),
  scriptRuntime("bun", "bun", "bun", ["run", "--no-install"]),
  workerd,
];

/** One line per runtime (and one per failed check), for the test log. */
export function describeOutcome(name: string, outcome: RuntimeOutcome): string {
  if (outcome.status === "unavailable") return `${name}: SKIPPED (${outcome.reason})`;
  if (outcome.status === "failed")
    return `${outcome.version}: FAILED in ${outcome.ms} ms\n    ${outcome.reason.replaceAll("\n", "\n    ")}`;
  const passed = outcome.results.filter((r) => r.ok).length;
  const lines = [`${outcome.version}: ${passed}/${outcome.results.length} checks passed in ${outcome.ms} ms`];
  for (const r of outcome.results) lines.push(`    ${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? "" : `: ${r.detail}`}`);
  return lines.join("\n");
}

// `npx tsx bench/runtimes/matrix.ts`: the matrix alone, without vitest.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bundles = await buildBundles();
  let failed = false;
  try {
    for (const runtime of RUNTIMES) {
      const outcome = await runtime.run(bundles);
      console.log(describeOutcome(runtime.name, outcome));
      failed ||= outcome.status === "failed" || (outcome.status === "ran" && outcome.results.some((r) => !r.ok));
    }
  } finally {
    await removeBundles(bundles);
  }
  process.exitCode = failed ? 1 : 0;
}
