/**
 * The rules of session control stated one by one (issue 27; the survivors of the session-control
 * mutation group): the id format, the "revoked before" mark's reach and lifetime, which registry a
 * strategy uses, the listing's order, revoking exactly one, the events' `by`, the per-user bound's order,
 * the memory store's own bound, the route's methods, and the device labels.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { encode } from "../../src/jwt.js";
import { createAuth } from "../../src/kernel/instance.js";
import { describeUserAgent } from "../../src/session/device.js";
import { memorySessionStore } from "../../src/session/memory-store.js";
import { newSessionId } from "../../src/session/registry.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";
import { sessionControlConfig, users } from "../helpers/session-control.js";
import { sessionRecord } from "../helpers/session-registry-conformance.js";

const ORIGIN = "http://localhost:3000";
const SALT = "authlib.session-token";
const as = (cookie: string) => ({ headers: { cookie }, url: ORIGIN });

async function signIn(auth: ReturnType<typeof createAuth>, user = "ada"): Promise<string> {
  const { cookies } = await auth.api.signIn({ headers: {}, url: ORIGIN }, { providerId: "credentials", username: user, password: "pw" });
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}
const nameOf = async (auth: ReturnType<typeof createAuth>, cookie: string) =>
  (await auth.api.getSession(as(cookie))).session?.user?.name ?? null;
/** A session cookie of `user` without `sid`, as issued before the registry. */
async function oldCookie(secret: string, user: keyof typeof users): Promise<string> {
  const { id, name } = users[user];
  return `${SALT}=${await encode({ token: { sub: id, name }, secret, salt: SALT })}`;
}

afterEach(() => vi.useRealTimers());

describe("session ids and the revoked-before mark", () => {
  it("ids are 22 base64url characters, never the same twice", () => {
    const ids = Array.from({ length: 2000 }, () => newSessionId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("each user has a mark of their own: marking a second user keeps the first one's", async () => {
    const { config } = sessionControlConfig(memorySessionStore());
    const auth = createAuth(config);
    const [adaOld, bobOld] = [await oldCookie(config.secret as string, "ada"), await oldCookie(config.secret as string, "bob")];
    await auth.api.revokeUserSessions({ userId: "u-ada" });
    await auth.api.revokeUserSessions({ userId: "u-bob" });
    expect(await nameOf(auth, adaOld)).toBeNull();
    expect(await nameOf(auth, bobOld)).toBeNull();
  });

  it("the mark lives session.maxAge: an old token stays refused until then, and is adopted after", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { config } = sessionControlConfig(memorySessionStore(), { session: { maxAge: 3600 } });
    const auth = createAuth(config);
    await auth.api.revokeUserSessions({ userId: "u-ada" });
    vi.setSystemTime(Date.now() + 3000_000);
    // Issued now (so not expired itself), still before the mark's end.
    expect(await nameOf(auth, await oldCookie(config.secret as string, "ada"))).toBeNull();
    vi.setSystemTime(Date.now() + 601_000);
    expect(await nameOf(auth, await oldCookie(config.secret as string, "ada"))).toBe("Ada");
  });

  it("ending ONE session leaves no mark: an old token of that user is still adopted", async () => {
    const { config } = sessionControlConfig(memorySessionStore());
    const auth = createAuth(config);
    const a = await signIn(auth);
    const b = await signIn(auth);
    const other = (await auth.api.listSessions(as(a))).find((s) => !s.current)?.id as string;
    expect((await auth.api.revokeSession(as(a), { sessionId: other })).revoked).toBe(1);
    expect(await nameOf(auth, b)).toBeNull();
    expect(await nameOf(auth, await oldCookie(config.secret as string, "ada"))).toBe("Ada");
  });

  it("database sessions leave no mark (their tokens are rows, never adopted)", async () => {
    const memory = memoryAdapter({ sessionRecords: true });
    memory.users.set("u-ada", { ...users.ada, emailVerified: null });
    const { config } = sessionControlConfig(undefined, { adapter: memory.adapter, session: { strategy: "database" } });
    const auth = createAuth(config);
    await signIn(auth);
    expect((await auth.api.revokeUserSessions({ userId: "u-ada" })).revoked).toBe(1);
    expect(await memory.adapter.listSessionRecords?.("u-ada")).toEqual([]);
  });

  it("database sessions keep their records in the adapter even when session.store is set", async () => {
    const memory = memoryAdapter({ sessionRecords: true });
    memory.users.set("u-ada", { ...users.ada, emailVerified: null });
    const store = memorySessionStore();
    const auth = createAuth(sessionControlConfig(store, { adapter: memory.adapter, session: { strategy: "database" } }).config);
    await signIn(auth);
    expect(await store.listByUser("u-ada")).toEqual([]);
    expect(await memory.adapter.listSessionRecords?.("u-ada")).toHaveLength(1);
  });
});

describe("bounds of a verdict, a mark, an adoption", () => {
  it("eventual: an instance trusts its read for LESS than revalidateAfter, not at the bound itself", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = memorySessionStore();
    const first = createAuth(sessionControlConfig(store).config);
    const second = createAuth(sessionControlConfig(store, { session: { revalidateAfter: 30 } }).config);
    const a = await signIn(first);
    const b = await signIn(first);
    expect(await nameOf(second, b)).toBe("Ada");
    await first.api.revokeOtherSessions(as(a));
    vi.setSystemTime(Date.now() + 30_000);
    expect(await nameOf(second, b)).toBeNull();
  });

  it("the mark is not a session: it never counts toward maxPerUser", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const auth = createAuth(sessionControlConfig(memorySessionStore(), { session: { maxPerUser: 2 } }).config);
    const a = await signIn(auth);
    vi.setSystemTime(Date.now() + 1000);
    await auth.api.revokeOtherSessions(as(a));
    vi.setSystemTime(Date.now() + 1000);
    const b = await signIn(auth);
    expect([await nameOf(auth, a), await nameOf(auth, b)]).toEqual(["Ada", "Ada"]);
  });

  it("a token without sid that names no user (empty sub) is not adopted", async () => {
    const store = memorySessionStore();
    const { config } = sessionControlConfig(store);
    const auth = createAuth(config);
    const nobody = `${SALT}=${await encode({ token: { sub: "", name: "Nobody" }, secret: config.secret as string, salt: SALT })}`;
    expect(await nameOf(auth, nobody)).toBeNull();
    expect(await store.listByUser("")).toEqual([]);
  });
});

describe("listing, revoking, events", () => {
  it("lists the most recently seen first; revoking by id ends exactly that one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { config, revoked } = sessionControlConfig(memorySessionStore());
    const auth = createAuth(config);
    const first = await signIn(auth);
    vi.setSystemTime(Date.now() + 5000);
    const second = await signIn(auth);
    vi.setSystemTime(Date.now() + 5000);
    const third = await signIn(auth);
    const listed = await auth.api.listSessions(as(first));
    expect(listed.map((s) => s.current)).toEqual([false, false, true]);
    const times = listed.map((s) => Date.parse(s.lastSeenAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const middle = listed[1]?.id as string;
    expect((await auth.api.revokeSession(as(first), { sessionId: middle })).revoked).toBe(1);
    expect([await nameOf(auth, first), await nameOf(auth, second), await nameOf(auth, third)]).toEqual(["Ada", null, "Ada"]);
    const mine = listed[2]?.id;
    expect(revoked).toEqual([expect.objectContaining({ userId: "u-ada", reason: "revoked", by: mine })]);
    await auth.api.revokeUserSessions({ userId: "u-ada" });
    expect(revoked[1]).toMatchObject({ reason: "server" });
    expect(revoked[1]).not.toHaveProperty("by");
  });

  it("past maxPerUser the least recently SEEN session ends, not the oldest", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { config } = sessionControlConfig(memorySessionStore(), { session: { maxPerUser: 2, updateAge: 60 } });
    const auth = createAuth(config);
    const first = await signIn(auth);
    vi.setSystemTime(Date.now() + 10_000);
    const second = await signIn(auth);
    // The first is used again after updateAge: its lastSeenAt moves past the second's.
    vi.setSystemTime(Date.now() + 61_000);
    const renewed = (await auth.api.getSession(as(first))).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    vi.setSystemTime(Date.now() + 1000);
    const third = await signIn(auth);
    expect([await nameOf(auth, renewed), await nameOf(auth, second), await nameOf(auth, third)]).toEqual(["Ada", null, "Ada"]);
  });

  it("GET /sessions/revoke and POST /sessions are 405", async () => {
    const { config } = sessionControlConfig(memorySessionStore());
    const client = authClient(config);
    expect((await client.send("/auth/sessions/revoke")).status).toBe(405);
    const csrfToken = await client.csrf();
    expect((await client.send("/auth/sessions", { form: { csrfToken, all: "others" } })).status).toBe(405);
  });
});

describe("memorySessionStore's own bound", () => {
  it("past maxSessions, expired records go first, then the one closest to its expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = memorySessionStore({ maxSessions: 2 });
    const soon = sessionRecord("a", 60);
    const late = sessionRecord("b", 3600);
    await store.create(soon);
    await store.create(late);
    const third = sessionRecord("c", 1800);
    await store.create(third);
    expect(await store.get("a", soon.id)).toBeNull();
    expect(await store.get("b", late.id)).not.toBeNull();
    expect(await store.get("c", third.id)).not.toBeNull();
    // Once `late`'s sibling has expired, room is made from it before any live record.
    vi.setSystemTime(Date.now() + 1801_000);
    const fourth = sessionRecord("d", 60);
    await store.create(fourth);
    expect(await store.get("b", late.id)).not.toBeNull();
    expect(await store.get("d", fourth.id)).not.toBeNull();
  });

  it("a record is gone at its expiry instant: not read, not answered as ended", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = memorySessionStore();
    const [read, deleted] = [sessionRecord("a", 60), sessionRecord("b", 60)];
    await store.create(read);
    await store.create(deleted);
    vi.setSystemTime(read.expires);
    expect(await store.get("a", read.id)).toBeNull();
    expect(await store.delete("b")).toEqual([]);
  });
});

describe("device labels, each rule", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 OPR/115.0", "Opera on Windows"],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 SamsungBrowser/26.0 Chrome/122.0 Mobile Safari/537.36",
      "Samsung Internet on Android",
    ],
    ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36", "Chrome on ChromeOS"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 EdgiOS/131.0 Mobile/15E148 Safari/605.1.15",
      "Edge on iOS",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
      "Safari on macOS",
    ],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15", "macOS device"],
    ["SomeBot/1.0 (Windows NT 10.0)", "Windows device"],
    ["Firefox/133.0", "Firefox"],
  ])("%s → %s", (header, label) => {
    expect(describeUserAgent(header)).toBe(label);
  });
});
