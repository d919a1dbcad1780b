/**
 * Starts the built demo (`npm run build` first) as a child process listening on 127.0.0.1 on a free
 * port, with a fresh temporary data folder (its PGlite database and secret) that `stop()` removes. The
 * development OP and SMTP server get free ports too (`DEMO_OIDC_PORT=0`, `DEMO_SMTP_PORT=0`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const demoDir = fileURLToPath(new URL("..", import.meta.url));
const entry = "server/entry.node-server.js";
/** PGlite's first start in a new folder (initdb, migrations) takes a few seconds; a busy machine more. */
const START_TIMEOUT = 45_000;

/** The running demo server. */
export interface DemoServer {
  /**
   * `http://localhost:<port>`: what the browser opens. `localhost` is a secure context (passkeys need
   * one), and the server, listening on 127.0.0.1, answers it.
   */
  origin: string;
  /** The demo's process id. */
  pid: number;
  /** Everything the server printed, for failure messages. */
  output(): string;
  /** Sends SIGTERM to the process, waits for it to exit, and removes the data folder. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("No free port.");
  return address.port;
}

/** Starts the production build of the demo with `env` added to the environment. */
export async function startDemo(env: Record<string, string> = {}): Promise<DemoServer> {
  if (!existsSync(`${demoDir}/${entry}`)) {
    throw new Error(`The demo is not built (${entry} is missing). Run \`npm run build\` at the repository root first.`);
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "authlib-demo-test-"));
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: demoDir,
    env: {
      ...process.env,
      DEMO_DATA_DIR: dataDir,
      AUTHLIB_DATABASE_URL: `file://${join(dataDir, "db")}`,
      DEMO_OIDC_PORT: "0",
      DEMO_SMTP_PORT: "0",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("The demo server did not start (no process id).");
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  // Should the test process end without stopping it (a crash, a timeout), the server goes with it.
  const killChild = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(pid, "SIGTERM");
  };
  process.once("exit", killChild);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    process.off("exit", killChild);
    killChild();
    // The server closes its database on SIGTERM; should it hang, it is killed after 15 s.
    const timer = setTimeout(() => child.exitCode === null && child.signalCode === null && process.kill(pid, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`The demo server exited (${child.exitCode}):\n${output}`);
    }
    try {
      await fetch(`http://127.0.0.1:${port}/favicon.svg`);
      break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The demo server did not start within ${START_TIMEOUT / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return { origin: `http://localhost:${port}`, pid, output: () => output, stop };
}
