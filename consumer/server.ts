/**
 * The consumer app's servers: `vite` dev and the node-server production build, each on a free port of
 * 127.0.0.1, each stopped by its own process id.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
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

/** The environment the app runs with: a fresh secret, and the public URL (production) or trust in Host (dev). */
export function appEnv(url: string, mode: "dev" | "production"): NodeJS.ProcessEnv {
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(33))).toString("base64");
  const env: NodeJS.ProcessEnv = { ...process.env, AUTH_SECRET: secret, NODE_ENV: mode === "dev" ? "development" : "production" };
  if (mode === "dev") env.AUTH_TRUST_HOST = "true";
  else env.AUTHLIB_URL = `${url}/auth`;
  // Qwik City checks the Origin of action POSTs against this.
  env.ORIGIN = url;
  return env;
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

/** `vite --mode ssr` (the starter's `dev` script) on a free port. */
export async function startDev(app: string): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const vite = join(app, "node_modules/vite/bin/vite.js");
  const child = spawn(process.execPath, [vite, "--mode", "ssr", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: app,
    env: appEnv(url, "dev"),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return start(child, url);
}

/** The node-server adapter's production server (`npm run serve`), after the builds. */
export async function startProduction(app: string): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server/entry.node-server"], {
    cwd: app,
    env: { ...appEnv(url, "production"), PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return start(child, url);
}
