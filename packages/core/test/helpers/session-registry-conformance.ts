/**
 * The contract every session registry keeps (`SessionRegistry`): the memory store, the Redis store, the
 * hosted database store and an adapter's session record methods all run these same cases.
 */
import { expect, it } from "vitest";
import type { SessionRecord, SessionRegistry } from "../../src/types/session-registry.js";

let counter = 0;

/** A record of `userId` that expires in `seconds`, with a fresh id. */
export function sessionRecord(userId: string, seconds = 3600, overrides: Partial<SessionRecord> = {}): SessionRecord {
  counter++;
  const now = Date.now();
  return {
    id: `rec${counter}${Math.random().toString(36).slice(2, 10)}`,
    userId,
    createdAt: new Date(now - 1000),
    lastSeenAt: new Date(now - 500),
    expires: new Date(now + seconds * 1000),
    userAgent: "Chrome on macOS",
    clientAddress: "203.0.113.0/24",
    provider: "credentials",
    ...overrides,
  };
}

/**
 * Registers the contract's cases for the registry `open()` makes (each case gets its own, or a shared one
 * with fresh user ids: every case uses user ids of its own).
 */
export function sessionRegistryContract(open: () => Promise<SessionRegistry> | SessionRegistry): void {
  const user = () => `user-${Math.random().toString(36).slice(2)}`;

  it("stores a record and gives it back whole, dates to the millisecond", async () => {
    const store = await open();
    const owner = user();
    const record = sessionRecord(owner, 3600, { userAgent: null, clientAddress: null, provider: null });
    await store.create(record);
    expect(await store.get(owner, record.id)).toEqual(record);
    expect(await store.get(owner, "never-made-0000")).toBeNull();
    // Asked for under another user, it is not there.
    expect(await store.get(user(), record.id)).toBeNull();
  });

  it("lists a user's live records only, never another user's or an expired one", async () => {
    const store = await open();
    const [ada, bob] = [user(), user()];
    const first = sessionRecord(ada);
    const second = sessionRecord(ada);
    const expired = sessionRecord(ada, -10);
    await store.create(first);
    await store.create(second);
    await store.create(expired);
    await store.create(sessionRecord(bob));
    const ids = (await store.listByUser(ada)).map((r) => r.id).sort();
    expect(ids).toEqual([first.id, second.id].sort());
    expect(await store.get(ada, expired.id)).toBeNull();
    expect(await store.listByUser(user())).toEqual([]);
  });

  it("touch moves lastSeenAt and expires; touching a missing record does nothing", async () => {
    const store = await open();
    const owner = user();
    const record = sessionRecord(owner);
    await store.create(record);
    const seen = new Date(Date.now() + 1000);
    const expires = new Date(Date.now() + 7200_000);
    await store.touch(owner, record.id, seen, expires);
    expect(await store.get(owner, record.id)).toEqual({ ...record, lastSeenAt: seen, expires });
    // Touched under another user: nothing changes.
    await store.touch(user(), record.id, new Date(0), new Date(Date.now() + 60_000));
    expect(await store.get(owner, record.id)).toEqual({ ...record, lastSeenAt: seen, expires });
    await store.touch(owner, "never-made-0001", seen, expires);
    expect(await store.get(owner, "never-made-0001")).toBeNull();
  });

  it("delete ends the given records of that user only, never `except`, and answers what it ended", async () => {
    const store = await open();
    const [ada, bob] = [user(), user()];
    const [a1, a2, a3] = [sessionRecord(ada), sessionRecord(ada), sessionRecord(ada)];
    const b1 = sessionRecord(bob);
    for (const record of [a1, a2, a3, b1]) await store.create(record);
    // Another user's id, asked for by ada: nothing happens to it.
    expect(await store.delete(ada, [b1.id])).toEqual([]);
    expect(await store.get(bob, b1.id)).toEqual(b1);
    expect((await store.delete(ada, [a1.id])).map((r) => r.id)).toEqual([a1.id]);
    expect(await store.get(ada, a1.id)).toBeNull();
    expect(await store.delete(ada, [a1.id])).toEqual([]);
    const ended = await store.delete(ada, undefined, a3.id);
    expect(ended.map((r) => r.id)).toEqual([a2.id]);
    expect((await store.listByUser(ada)).map((r) => r.id)).toEqual([a3.id]);
    expect((await store.delete(ada)).map((r) => r.id)).toEqual([a3.id]);
    expect(await store.listByUser(ada)).toEqual([]);
    expect(await store.listByUser(bob)).toEqual([b1]);
  });

  it("delete never answers an expired record as ended (it was no session any more)", async () => {
    const store = await open();
    const owner = user();
    const live = sessionRecord(owner);
    await store.create(live);
    await store.create(sessionRecord(owner, -10));
    expect((await store.delete(owner)).map((r) => r.id)).toEqual([live.id]);
  });

  it("a returned record is a copy: changing it changes nothing stored", async () => {
    const store = await open();
    const owner = user();
    const record = sessionRecord(owner);
    await store.create(record);
    const got = (await store.get(owner, record.id)) as SessionRecord;
    got.userId = "someone-else";
    got.expires.setTime(0);
    expect(await store.get(owner, record.id)).toEqual(record);
  });
}
