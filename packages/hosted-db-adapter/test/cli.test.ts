/**
 * The `authlib-db` command line, run as a child process from its TypeScript source (through tsx), the
 * way `npx authlib-db migrate` runs the built file.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBranch } from "./helpers.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
      cwd: packageDir,
      env: { ...process.env, AUTHLIB_DATABASE_URL: "", AUTHLIB_BRANCH: "", ...env },
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

describe("authlib-db", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "authlib-db-cli-"));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints its usage for --help", async () => {
    const run = await runCli(["--help"]);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining("authlib-db <command>") });
  });

  it("exits with 2 for an unknown command", async () => {
    const run = await runCli(["drop-everything"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "drop-everything"');
  });

  it("migrate creates the tables in an embedded database folder, then finds it up to date", async () => {
    const folder = join(dataDir, "db");
    const first = await runCli(["migrate"], { AUTHLIB_DATABASE_URL: `file://${folder}` });
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toContain(`Opening file://${folder} (embedded PGlite: its first start takes a while)…\n`);
    expect(first.stdout).toContain("  1 authlib tables\n");
    expect(first.stdout).toContain(
      `Applied migration(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 to branch "main" of file://${folder}; now at version 14.\n`,
    );

    const second = await runCli(["migrate", "--url", `file://${folder}`]);
    expect(second).toMatchObject({
      code: 0,
      stdout: `Opening file://${folder} (embedded PGlite: its first start takes a while)…\nUp to date: branch "main" of file://${folder} is at version 14.\n`,
    });
    // Two PGlite starts in child processes, the first one writing a fresh database to disk (~10 s alone).
  }, 120_000);

  it("migrate exits with 1 and says why for an invalid branch", async () => {
    const run = await runCli(["migrate", "--url", "memory://", "--branch", "Bad Name"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Invalid branch name");
  });
});

const postgresURL = process.env.AUTHLIB_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

async function postgresAnswers(): Promise<boolean> {
  const probe = new pg.Client({ connectionString: postgresURL, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    return true;
  } catch {
    console.warn(`Skipping "authlib-db migrate on PostgreSQL": no server answered (set AUTHLIB_TEST_DATABASE_URL).`);
    return false;
  } finally {
    await probe.end().catch(() => {});
  }
}

describe.skipIf(!(await postgresAnswers()))("authlib-db migrate on PostgreSQL", () => {
  const branch = randomBranch("cli");
  let pool: pg.Pool;

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: postgresURL });
  });

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${branch}" CASCADE`);
    await pool.end();
  });

  it("creates the branch schema with its tables", async () => {
    const run = await runCli(["migrate", "--branch", branch], { AUTHLIB_DATABASE_URL: postgresURL });
    expect(run).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`Applied migration(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 to branch "${branch}"`),
    });
    const { rows } = await pool.query("SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = $1", [branch]);
    expect(rows).toEqual([{ tables: 29 }]);
  });
});
