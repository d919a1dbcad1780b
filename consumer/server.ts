/**
 * The consumer app's servers: `vite` dev and the node-server production build, each on a port of
 * 127.0.0.1, each stopped by its own process id (the workerd one is workerd.ts), and the environment
 * they start with.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

/** A running server and how to stop it. */
export interface AppServer {
  readonly url: string;
  /** Everything the server printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A fresh `AUTH_SECRET`, as `openssl rand -base64 33` makes one. */
export function newSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(33))).toString("base64");
}

/**
 * The environment of a process the test starts: the shell's basics and `extra`, nothing of vitest's own
 * (its `NODE_ENV=test` would make Vite build something else than a production build, and the app must get
 * its variables from where the guide says, not inherit them).
 */
export function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NPM_CONFIG_FUND: "false", NPM_CONFIG_AUDIT: "false", NPM_CONFIG_UPDATE_NOTIFIER: "false" };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

/** Writes `KEY=value` lines to `app/<file>` (`.env`, `.dev.vars`), replacing the file. */
export function writeVars(app: string, file: string, vars: Record<string, string>): void {
  writeFileSync(
    join(app, file),
    Object.entries(vars)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
  );
}

async function start(child: ChildProcess, url: string): Promise<AppServer> {
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = once(child, "exit");
  const server: AppServer = {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killed = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killed);
    },
  };
  // Ready when it answers HTTP (any status): polling, because neither server says so in a fixed form.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(url, { redirect: "manual" });
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The starter's `npm run dev` (`vite --mode ssr`) on `port`: its variables come from the app's `.env`. */
export async function startDev(app: string, port: number): Promise<AppServer> {
  const url = `http://127.0.0.1:${port}`;
  const vite = join(app, "node_modules/vite/bin/vite.js");
  const child = spawn(process.execPath, [vite, "--mode", "ssr", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: app,
    env: shellEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return start(child, url);
}

/**
 * Runs a guide's `[VAR=value …] node <args…>` command line in `app` (the Node server of step 7), with the
 * test's own Node; the server listens on `port` (`PORT` in the `.env` the command reads).
 */
export async function startNodeCommand(app: string, command: string, port: number): Promise<AppServer> {
  const words = command.trim().split(/\s+/);
  const assignments: Record<string, string> = {};
  while (words.length && /^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = (words.shift() as string).split("=");
    assignments[name] = value.join("=");
  }
  if (words.shift() !== "node") throw new Error(`not a \`node …\` command: ${command}`);
  const child = spawn(process.execPath, words, { cwd: app, env: shellEnv(assignments), stdio: ["ignore", "pipe", "pipe"] });
  return start(child, `http://127.0.0.1:${port}`);
}
