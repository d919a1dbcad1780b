/**
 * Starts the built demo (`npm run build` first) as a child process on 127.0.0.1, on a free port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const demoDir = fileURLToPath(new URL("..", import.meta.url));
const entry = "server/entry.node-server.js";

/** The running demo server. */
export interface DemoServer {
  origin: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
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
  const origin = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: demoDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  // Should the test process end without stopping it (a crash, a timeout), the server goes with it.
  const killChild = () => child.kill("SIGTERM");
  process.once("exit", killChild);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    process.off("exit", killChild);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The demo server exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(`${origin}/favicon.svg`);
      break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The demo server did not start within 15 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return { origin, output: () => output, stop };
}
