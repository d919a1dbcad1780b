/**
 * The pool `HostedDbClient` opens for a `postgres://` URL when the server fails:
 * - it never waits forever: a server that accepts connections but never speaks (a frozen or black-holed
 *   host) and a statement whose answer never comes both end in `HostedDbError("Timeout")`, and the client
 *   keeps working once the server answers again (`pg` itself waits forever by default);
 * - a connection lost in the middle of a transaction fails that transaction, not the process.
 */
import { createServer, type Server, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostedDbClient } from "../src/index.js";
import { testDatabaseURL as databaseURL, postgresAnswers } from "./helpers.js";

const timeoutError = expect.objectContaining({ name: "HostedDbError", code: "Timeout" });

/** A TCP server on 127.0.0.1 that accepts every connection and never writes a byte. */
async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the silent server has no port");
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("a server that accepts connections and never answers", () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let client: HostedDbClient;

  beforeAll(async () => {
    silent = await startSilentServer();
    client = new HostedDbClient({ databaseURL: `postgres://postgres@127.0.0.1:${silent.port}/test`, connectTimeoutMillis: 300 });
  });
  afterAll(async () => {
    await client.close();
    await silent.close();
  });

  it("fails a statement with HostedDbError Timeout instead of waiting forever", async () => {
    await expect(client.query("SELECT 1")).rejects.toEqual(timeoutError);
  });

  it("fails a transaction the same way, before running its body", async () => {
    let ran = false;
    const attempt = client.transaction(async (tx) => {
      ran = true;
      return tx.query("SELECT 1");
    });
    await expect(attempt).rejects.toEqual(timeoutError);
    expect(ran).toBe(false);
  });
});

const available = await postgresAnswers(databaseURL(), "the PostgreSQL failure tests");

describe.skipIf(!available)("a statement whose answer does not come in time", () => {
  let client: HostedDbClient;

  beforeAll(() => {
    client = new HostedDbClient({ databaseURL: databaseURL(), queryTimeoutMillis: 300 });
  });
  afterAll(async () => {
    await client.close();
  });

  it("fails with HostedDbError Timeout, and the next statement runs on a fresh connection", async () => {
    const before = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await expect(client.query("SELECT pg_sleep(2)")).rejects.toEqual(timeoutError);
    const after = await client.query<{ pid: number; one: number }>("SELECT pg_backend_pid() AS pid, 1 AS one");
    expect(after.rows[0]?.one).toBe(1);
    // The pool held one connection; the one that timed out was dropped, not reused.
    expect(after.rows[0]?.pid).not.toBe(before.rows[0]?.pid);
  });

  it("inside a transaction: fails with Timeout, drops the connection without a ROLLBACK that would wait too", async () => {
    const attempt = client.transaction(async (tx) => {
      await tx.query("SELECT 1");
      return tx.query("SELECT pg_sleep(2)");
    });
    await expect(attempt).rejects.toEqual(timeoutError);
    const committed = await client.transaction((tx) => tx.query<{ one: number }>("SELECT 1 AS one"));
    expect(committed.rows).toEqual([{ one: 1 }]);
  });

  it("queryTimeoutMillis 0 waits as long as the statement takes", async () => {
    const patient = new HostedDbClient({ databaseURL: databaseURL(), queryTimeoutMillis: 0 });
    try {
      const result = await patient.query<{ done: boolean }>("SELECT true AS done FROM pg_sleep(0.5)");
      expect(result.rows).toEqual([{ done: true }]);
    } finally {
      await patient.close();
    }
  });
});

describe.skipIf(!available)("a connection lost between two statements of a transaction", () => {
  let client: HostedDbClient;
  let admin: pg.Client;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => void uncaught.push(error);

  beforeAll(async () => {
    client = new HostedDbClient({ databaseURL: databaseURL() });
    admin = new pg.Client({ connectionString: databaseURL() });
    await admin.connect();
    process.on("uncaughtException", onUncaught);
  });
  afterAll(async () => {
    process.off("uncaughtException", onUncaught);
    await admin.end();
    await client.close();
  });

  it("fails the transaction with the driver's error; no unheard error event ends the process", async () => {
    const attempt = client.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const pid = rows[0]?.pid;
      // The server ends this connection while the transaction is between statements.
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      for (let i = 0; i < 100; i++) {
        const alive = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
        if (alive.rows.length === 0) break;
        await sleep(20);
      }
      // Let the connection read the server's goodbye before the next statement.
      await sleep(100);
      return tx.query("SELECT 1");
    });
    await expect(attempt).rejects.toThrow();
    expect(uncaught).toEqual([]);
    // The broken connection was not handed back: the next transaction works.
    const next = await client.transaction((tx) => tx.query<{ one: number }>("SELECT 1 AS one"));
    expect(next.rows).toEqual([{ one: 1 }]);
  });
});

describe("timeout options", () => {
  it.each([
    ["a negative connect timeout", { connectTimeoutMillis: -1 }],
    ["a connect timeout of 0 (pg would wait forever)", { connectTimeoutMillis: 0 }],
    ["a fractional query timeout", { queryTimeoutMillis: 1.5 }],
    ["a query timeout that is not a number", { queryTimeoutMillis: Number.NaN }],
  ])("rejects %s", (_, options) => {
    expect(() => new HostedDbClient({ databaseURL: "postgres://postgres@127.0.0.1:5432/test", ...options })).toThrow(
      expect.objectContaining({ name: "HostedDbError", code: "InvalidOptions" }),
    );
  });
});
