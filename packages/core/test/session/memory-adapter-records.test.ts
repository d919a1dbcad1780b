/**
 * The test memory adapter's session record methods (`memoryAdapter({ sessionRecords: true })`): they keep
 * the registry contract that every store keeps, and a database session's row is its record, as the
 * database strategy and the session routes rely on (the browser test drives them through the routes).
 */
import { describe, expect, it } from "vitest";
import type { Adapter } from "../../src/types/adapters.js";
import type { SessionRegistry } from "../../src/types/session-registry.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { sessionRegistryContract } from "../helpers/session-registry-conformance.js";

/** The adapter's record methods as a registry, the way authlib reads them (each answer awaited). */
function registryOf(adapter: Adapter): SessionRegistry {
  const { createSessionRecord, getSessionRecord, listSessionRecords, touchSessionRecord, deleteSessionRecords } = adapter;
  if (!createSessionRecord || !getSessionRecord || !listSessionRecords || !touchSessionRecord || !deleteSessionRecords) {
    throw new Error("the adapter has no session record methods");
  }
  return {
    create: async (record) => createSessionRecord(record),
    get: async (userId, id) => getSessionRecord(userId, id),
    listByUser: async (userId) => listSessionRecords(userId),
    touch: async (userId, id, lastSeenAt, expires) => touchSessionRecord(userId, id, lastSeenAt, expires),
    delete: async (userId, ids, except) => deleteSessionRecords(userId, ids, except),
  };
}

describe("the memory adapter's session record methods keep the registry contract", () => {
  sessionRegistryContract(() => registryOf(memoryAdapter({ sessionRecords: true }).adapter));
});

describe("the memory adapter's database session rows are records", () => {
  const metadata = {
    createdAt: new Date("2030-01-01T10:00:00.000Z"),
    lastSeenAt: new Date("2030-01-01T10:00:00.000Z"),
    userAgent: "Firefox on Windows",
    clientAddress: "203.0.113.0/24",
    provider: "credentials",
  };

  it("without the option it has no record methods and its rows no id (the other tests' adapter is unchanged)", async () => {
    const { adapter } = memoryAdapter();
    expect(adapter.createSessionRecord).toBeUndefined();
    const created = await adapter.createSession?.({ sessionToken: "t0", userId: "u1", expires: new Date(Date.now() + 60_000) });
    expect(created?.id).toBeUndefined();
  });

  it("a row gets an id, keeps its metadata, is listed as a record without its token, and is touched and deleted as one", async () => {
    const memory = memoryAdapter({ sessionRecords: true });
    const { adapter } = memory;
    const registry = registryOf(adapter);
    memory.users.set("u1", { id: "u1", email: "ada@example.com", emailVerified: null });
    const expires = new Date(Date.now() + 3600_000);
    const created = await adapter.createSession?.({ sessionToken: "token-1", userId: "u1", expires, ...metadata });
    const id = created?.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await adapter.getSessionAndUser?.("token-1"))?.session.id).toBe(id);

    const record = { id, userId: "u1", expires, ...metadata };
    expect(await registry.listByUser("u1")).toEqual([record]);
    expect(JSON.stringify(await registry.listByUser("u1"))).not.toContain("token-1");
    expect(await registry.get("u1", id)).toEqual(record);
    expect(await registry.get("u2", id)).toBeNull();

    const seen = new Date(Date.now() + 1000);
    const later = new Date(Date.now() + 7200_000);
    await registry.touch("u1", id, seen, later);
    expect(await registry.get("u1", id)).toEqual({ ...record, lastSeenAt: seen, expires: later });
    expect(memory.sessions.get("token-1")?.expires).toEqual(later);

    // Another user cannot end it; its own user can, and the row goes with the record.
    expect(await registry.delete("u2", [id])).toEqual([]);
    expect((await registry.delete("u1", [id])).map((r) => r.id)).toEqual([id]);
    expect(await adapter.getSessionAndUser?.("token-1")).toBeNull();
    expect(await registry.listByUser("u1")).toEqual([]);
  });

  it("lists a user's rows and JWT records together; an expired row is not listed; `except` stays", async () => {
    const memory = memoryAdapter({ sessionRecords: true });
    const registry = registryOf(memory.adapter);
    const soon = new Date(Date.now() + 3600_000);
    const row = await memory.adapter.createSession?.({ sessionToken: "token-2", userId: "u1", expires: soon, ...metadata });
    await memory.adapter.createSession?.({ sessionToken: "token-3", userId: "u1", expires: new Date(Date.now() - 1000), ...metadata });
    const jwt = { id: "jwt-record-1", userId: "u1", expires: soon, ...metadata, provider: "github" };
    await registry.create(jwt);
    expect((await registry.listByUser("u1")).map((r) => r.id).sort()).toEqual([row?.id, jwt.id].sort());
    expect((await registry.delete("u1", undefined, row?.id)).map((r) => r.id)).toContain(jwt.id);
    expect((await registry.listByUser("u1")).map((r) => r.id)).toEqual([row?.id]);
  });
});
