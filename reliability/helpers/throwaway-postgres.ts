/**
 * A PostgreSQL cluster of the test's own, to break on purpose: `initdb` into a temporary folder, the
 * server on 127.0.0.1 and a free port, its socket in that folder. It can be stopped hard
 * (`pg_ctl stop -m immediate`, as a crash), started again on the same port and data, or frozen
 * (SIGSTOP on every process of the cluster: connections are accepted by the kernel and never answered,
 * like a host that hangs). The shared server on 5432 is never touched.
 *
 * Tests run as root, which PostgreSQL refuses; the cluster then runs as the `postgres` user.
 */
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** The folder of Debian's PostgreSQL binaries (the newest installed), or undefined. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** A running (or stopped, or frozen) throwaway cluster. */
export interface ThrowawayPostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** Kills the server as a crash would (`pg_ctl stop -m immediate`). */
  crash(): Promise<void>;
  /** Starts it again on the same port and data folder; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops every process of the cluster (SIGSTOP): it holds connections and answers nothing. */
  freeze(): void;
  /** Lets the frozen processes run again (SIGCONT). */
  thaw(): void;
  /** Stops the server and deletes its folder. */
  destroy(): Promise<void>;
}

/** Creates and starts a cluster; throws when the binaries are missing or the server does not start. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("No PostgreSQL server binaries under /usr/lib/postgresql.");
  const folder = mkdtempSync(join(tmpdir(), "authlib-reliability-pg-"));
  const dataDir = join(folder, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    const gid = execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim();
    chownSync(folder, Number(uid), Number(gid));
  }
  // Asynchronous: the app under test runs in this process and must keep answering meanwhile.
  async function run(tool: string, args: string[]): Promise<void> {
    const command = join(bin as string, tool);
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    await execFileAsync(file, argv, { encoding: "utf8", timeout: 60_000 });
  }
  await run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"]);
  const port = await freePort();
  // fsync off: the test kills the server process, not the machine, so the OS keeps what was written.
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  function start(): Promise<void> {
    return run("pg_ctl", ["-D", dataDir, "-l", join(folder, "server.log"), "-w", "-t", "60", "-o", serverOptions, "start"]);
  }
  function clusterPids(): number[] {
    const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    return [postmaster, ...children];
  }
  let frozen: number[] = [];
  function thaw(): void {
    for (const pid of frozen) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // A backend that ended meanwhile.
      }
    }
    frozen = [];
  }
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]),
    start,
    freeze() {
      frozen = clusterPids();
      for (const pid of frozen) process.kill(pid, "SIGSTOP");
    },
    thaw,
    async destroy() {
      thaw();
      // Fails when already stopped: fine.
      await run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
