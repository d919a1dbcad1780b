/**
 * How `HostedDbClient` resolves its options and the `AUTHLIB_*` environment. Constructing a client
 * opens nothing, so these tests need no database.
 */
import { resolve } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { importDriver } from "../src/errors.js";
import { DEFAULT_BRANCH, HostedDbClient, HostedDbError } from "../src/index.js";

function clearEnv(): void {
  vi.stubEnv("AUTHLIB_DATABASE_URL", "");
  vi.stubEnv("AUTHLIB_BRANCH", "");
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("HostedDbClient options", () => {
  it("defaults to the embedded database in ./.authlib-db and the branch main", async () => {
    clearEnv();
    const client = new HostedDbClient();
    expect(await client.getConfig()).toEqual({ branch: "main", databaseURL: `file://${resolve(".authlib-db")}` });
    expect(client.branch).toBe(DEFAULT_BRANCH);
  });

  it("puts the embedded database in dataDir when no URL is set", async () => {
    clearEnv();
    expect(await new HostedDbClient({ dataDir: "var/db" }).getConfig()).toEqual({
      branch: "main",
      databaseURL: `file://${resolve("var/db")}`,
    });
  });

  it("reads AUTHLIB_DATABASE_URL and AUTHLIB_BRANCH, and hides the password", async () => {
    vi.stubEnv("AUTHLIB_DATABASE_URL", "postgres://app:s3cret@db.internal:5433/auth");
    vi.stubEnv("AUTHLIB_BRANCH", "preview-42");
    expect(await new HostedDbClient().getConfig()).toEqual({
      branch: "preview-42",
      databaseURL: "postgres://app:***@db.internal:5433/auth",
    });
  });

  it("prefers options over the environment", async () => {
    vi.stubEnv("AUTHLIB_DATABASE_URL", "postgres://env@db/env");
    vi.stubEnv("AUTHLIB_BRANCH", "from_env");
    const client = new HostedDbClient({ databaseURL: "postgresql://opt@db/opt", branch: "from_options", dataDir: "ignored" });
    expect(await client.getConfig()).toEqual({ branch: "from_options", databaseURL: "postgresql://opt@db/opt" });
  });

  it("accepts memory:// and file:// URLs", async () => {
    clearEnv();
    expect(await new HostedDbClient({ databaseURL: "memory://" }).getConfig()).toMatchObject({ databaseURL: "memory://" });
    expect(await new HostedDbClient({ databaseURL: "file://./data/auth" }).getConfig()).toMatchObject({
      databaseURL: `file://${resolve("data/auth")}`,
    });
    expect(await new HostedDbClient({ databaseURL: "file:///srv/auth-db" }).getConfig()).toMatchObject({
      databaseURL: "file:///srv/auth-db",
    });
  });

  it("describes an injected pool without its password", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://app:s3cret@127.0.0.1:5432/auth" });
    try {
      expect(await new HostedDbClient({ pool, branch: "b" }).getConfig()).toEqual({
        branch: "b",
        databaseURL: "postgres://app:***@127.0.0.1:5432/auth",
      });
    } finally {
      await pool.end();
    }
  });

  it.each([
    ["an unsupported scheme", { databaseURL: "mysql://root@db/auth" }],
    ["an empty file:// URL", { databaseURL: "file://" }],
  ])("rejects %s", (_, options) => {
    clearEnv();
    expect(() => new HostedDbClient(options)).toThrow(expect.objectContaining({ name: "HostedDbError", code: "InvalidOptions" }));
  });

  it.each(["Main", "", "pg_catalog", "1st", 'main"; DROP SCHEMA public CASCADE; --', "a".repeat(64), "with space"])(
    "rejects the branch name %j",
    (branch) => {
      expect(() => new HostedDbClient({ databaseURL: "memory://", branch })).toThrow(HostedDbError);
    },
  );

  it.each(["main", "preview-42", "feature_x", "_scratch", "a".repeat(63)])("accepts the branch name %j", (branch) => {
    expect(new HostedDbClient({ databaseURL: "memory://", branch }).branch).toBe(branch);
  });

  it("opens nothing until the first query, so close() right away is fine", async () => {
    const client = new HostedDbClient({ databaseURL: "postgres://nobody@127.0.0.1:1/none" });
    await expect(client.close()).resolves.toBeUndefined();
  });

  it("refuses queries after close()", async () => {
    const client = new HostedDbClient({ databaseURL: "memory://" });
    await client.close();
    await expect(client.db.authlib_users.read("x")).rejects.toMatchObject({ name: "HostedDbError", code: "Closed" });
  });

  it("reports a database that does not answer when a query runs, not when the client is built", async () => {
    const client = new HostedDbClient({ databaseURL: "postgres://nobody@127.0.0.1:1/none" });
    try {
      await expect(client.db.authlib_users.read("x")).rejects.toThrow(/ECONNREFUSED|connect/);
    } finally {
      await client.close();
    }
  });
});

describe("a driver package that is not installed", () => {
  /** What Node's loader throws for a package that is not there. */
  const notFound = (name: string) =>
    Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/@authlib/hosted-db-adapter/dist/drivers/x.js`), {
      code: "ERR_MODULE_NOT_FOUND",
    });

  it.each([
    [
      "@electric-sql/pglite" as const,
      "The embedded database (no URL, file:// or memory://) needs the package @electric-sql/pglite, which is not installed: npm install @electric-sql/pglite, or set AUTHLIB_DATABASE_URL (or --url) to your PostgreSQL server's postgres:// URL.",
    ],
    ["pg" as const, "A PostgreSQL server (a postgres:// URL) needs the package pg, which is not installed: npm install pg."],
  ])("%s: MissingDriver says what to install, instead of Node's raw message", async (name, message) => {
    const failure = await importDriver(name, () => Promise.reject(notFound(name))).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HostedDbError);
    expect(failure).toMatchObject({ code: "MissingDriver", message });
  });

  it("another module missing, or another failure, passes through unchanged", async () => {
    const deeper = notFound("some-dependency-of-pglite");
    await expect(importDriver("@electric-sql/pglite", () => Promise.reject(deeper))).rejects.toBe(deeper);
    const broken = new TypeError("bad build");
    await expect(importDriver("pg", () => Promise.reject(broken))).rejects.toBe(broken);
    await expect(importDriver("pg", async () => "loaded")).resolves.toBe("loaded");
  });
});
