/**
 * Test fixture: the built `authlib` command line (`packages/core/dist/cli/main.js`, so run `npm run
 * build` first) as a child process, a throwaway app folder with chosen packages in its `node_modules`,
 * and a port nothing listens on.
 *
 * ```ts
 * const app = await tempApp(["pg", "@authlib/hosted-db-adapter"]); // symlinks from the repo
 * const run = await runAuthlib(["doctor"], { cwd: app.dir, env: { NODE_ENV: "production" } });
 * run.code; run.stdout; run.stderr;
 * await app.remove();
 * ```
 *
 * - `runAuthlib` starts from a clean environment (PATH, HOME and what `env` adds), so the developer's
 *   `AUTH_*` and `AUTHLIB_*` variables never leak in; stdout is a pipe, so no colours.
 * - `tempApp(packages)` makes a folder under the OS temp dir whose `node_modules` holds symlinks to the
 *   repo's copies of `packages` (workspace packages resolve to their folders); nothing else resolves
 *   from it, which is how a missing optional peer is tested.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The built executable. */
export const CLI_PATH = join(REPO_ROOT, "packages/core/dist/cli/main.js");

/** What a run printed and its exit code. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <CLI_PATH> ...args` (or another script) in `cwd` with a clean environment plus `env`. */
export function runAuthlib(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; script?: string } = {},
): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [options.script ?? CLI_PATH, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** A throwaway app folder. */
export interface TempApp {
  dir: string;
  remove(): Promise<void>;
}

/** A temp folder whose `node_modules` links exactly `packages` from the repo (see the module comment). */
export async function tempApp(packages: readonly string[] = []): Promise<TempApp> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "authlib-cli-")));
  for (const name of packages) {
    const source = join(REPO_ROOT, "node_modules", name);
    if (!existsSync(source)) throw new Error(`tempApp: ${name} is not installed in the repo`);
    const target = join(dir, "node_modules", name);
    await mkdir(dirname(target), { recursive: true });
    await symlink(await realpath(source), target, "dir");
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A TCP port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolvePromise) => server.listen(0, "127.0.0.1", resolvePromise));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise((resolvePromise) => server.close(resolvePromise));
  return port;
}
