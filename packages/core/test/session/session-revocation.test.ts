/**
 * When a revoked JWT session stops working (issue 27): strict on every instance from the next check;
 * eventual at once on the revoking instance and within `revalidateAfter` elsewhere; never for a token
 * that has no record. And what the registry costs a session: a record per sign-in, `lastSeenAt` moved
 * only when the token is re-issued, the per-user bound, sign-out deleting the record.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidSessionId } from "../../src/errors.js";
import { encode } from "../../src/jwt.js";
import { createAuth } from "../../src/kernel/instance.js";
import { addressPrefix } from "../../src/rate-limit/client-address.js";
import { describeUserAgent } from "../../src/session/device.js";
import { memorySessionStore } from "../../src/session/memory-store.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { SessionRecord, SessionRegistry } from "../../src/types/session-registry.js";
import { sessionControlConfig } from "../helpers/session-control.js";

const ORIGIN = "http://localhost:3000";
const SALT = "authlib.session-token";

/** Signs `user` in through `auth.api` and answers the Cookie header of the new session. */
async function signIn(auth: ReturnType<typeof createAuth>, user = "ada"): Promise<string> {
  const { cookies } = await auth.api.signIn(
    { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" }, url: ORIGIN, clientAddress: "198.51.100.20" },
    { providerId: "credentials", username: user, password: "pw" },
  );
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

const as = (cookie: string) => ({ headers: { cookie }, url: ORIGIN });
const nameOf = async (auth: ReturnType<typeof createAuth>, cookie: string) =>
  (await auth.api.getSession(as(cookie))).session?.user?.name ?? null;

afterEach(() => vi.useRealTimers());

describe("revocation bounds across instances sharing a registry", () => {
  it("strict: another instance refuses a revoked session on its next check", async () => {
    const store = memorySessionStore();
    const first = createAuth(sessionControlConfig(store, { session: { revocation: "strict" } }).config);
    const second = createAuth(sessionControlConfig(store, { session: { revocation: "strict" } }).config);
    const a = await signIn(first);
    const b = await signIn(first);
    expect(await nameOf(second, b)).toBe("Ada");
    expect((await first.api.revokeOtherSessions(as(a))).revoked).toBe(1);
    expect(await nameOf(second, b)).toBeNull();
    expect(await nameOf(second, a)).toBe("Ada");
  });

  it("eventual: refused at once where revoked, within revalidateAfter on another instance that read it before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = memorySessionStore();
    const first = createAuth(sessionControlConfig(store).config);
    const second = createAuth(sessionControlConfig(store, { session: { revalidateAfter: 30 } }).config);
    const a = await signIn(first);
    const b = await signIn(first);
    expect(await nameOf(first, b)).toBe("Ada");
    expect(await nameOf(second, b)).toBe("Ada");
    await first.api.revokeOtherSessions(as(a));
    expect(await nameOf(first, b)).toBeNull();
    // The second instance trusts its read of 0 s ago until 30 s have passed: the stated bound.
    vi.setSystemTime(Date.now() + 29_000);
    expect(await nameOf(second, b)).toBe("Ada");
    vi.setSystemTime(Date.now() + 2_000);
    expect(await nameOf(second, b)).toBeNull();
    expect(await nameOf(second, a)).toBe("Ada");
  });

  it("a session never read by an instance is checked in the registry on its first read there", async () => {
    const store = memorySessionStore();
    const first = createAuth(sessionControlConfig(store).config);
    const second = createAuth(sessionControlConfig(store).config);
    const a = await signIn(first);
    const b = await signIn(first);
    await first.api.revokeOtherSessions(as(a));
    expect(await nameOf(second, b)).toBeNull();
  });

  it("server code ends every session of a user but the one it keeps; other users keep theirs", async () => {
    const { config, revoked } = sessionControlConfig(memorySessionStore());
    const auth = createAuth(config);
    const a = await signIn(auth);
    const b = await signIn(auth);
    const bob = await signIn(auth, "bob");
    const keep = (await auth.api.listSessions(as(a))).find((s) => s.current)?.id as string;
    expect(await auth.api.revokeUserSessions({ userId: "u-ada", except: keep })).toEqual({ revoked: 1 });
    expect([await nameOf(auth, a), await nameOf(auth, b), await nameOf(auth, bob)]).toEqual(["Ada", null, "Bob"]);
    expect(revoked.map((r) => r.reason)).toEqual(["server"]);
    expect(await auth.api.revokeUserSessions({ userId: "u-ada" })).toEqual({ revoked: 1 });
    expect(await nameOf(auth, a)).toBeNull();
    await expect(auth.api.revokeUserSessions({ userId: "" })).rejects.toBeInstanceOf(InvalidSessionId);
    await expect(auth.api.revokeUserSessions({ userId: "u-ada", except: "x y" })).rejects.toBeInstanceOf(InvalidSessionId);
  });
});

describe("a session's record", () => {
  it("revoking the current session by id signs this device out: its cookie is cleared", async () => {
    const auth = createAuth(sessionControlConfig(memorySessionStore()).config);
    const a = await signIn(auth);
    const id = (await auth.api.listSessions(as(a)))[0]?.id as string;
    const result = await auth.api.revokeSession(as(a), { sessionId: id });
    expect(result.revoked).toBe(1);
    expect(result.cookies.some((c) => c.name.includes("session-token") && c.options.maxAge === 0)).toBe(true);
    expect(await nameOf(auth, a)).toBeNull();
  });

  it("sign-out deletes the record; a copy of the signed-out cookie gets no session", async () => {
    const store = memorySessionStore();
    const auth = createAuth(sessionControlConfig(store).config);
    const a = await signIn(auth);
    expect(await store.listByUser("u-ada")).toHaveLength(1);
    await auth.api.signOut(as(a));
    expect(await store.listByUser("u-ada")).toEqual([]);
    expect(await nameOf(auth, a)).toBeNull();
  });

  it("a token with a sid the registry does not hold gets no session", async () => {
    const { config } = sessionControlConfig(memorySessionStore());
    const auth = createAuth(config);
    const made = await encode({
      token: { sub: "u-ada", name: "Ada", sid: "made-up-session-id-000" },
      secret: config.secret as string,
      salt: SALT,
    });
    expect(await nameOf(auth, `${SALT}=${made}`)).toBeNull();
  });

  it("a token from before the registry (no sid) is adopted: registered, listed, re-issued with its sid", async () => {
    const store = memorySessionStore();
    const { config } = sessionControlConfig(store);
    const auth = createAuth(config);
    const old = `${SALT}=${await encode({ token: { sub: "u-ada", name: "Ada" }, secret: config.secret as string, salt: SALT })}`;
    const read = await auth.api.getSession(as(old));
    expect(read.session?.user?.name).toBe("Ada");
    const reissued = read.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect(reissued).toContain(SALT);
    const listed = await auth.api.listSessions(as(reissued));
    expect(listed).toHaveLength(1);
    expect(listed[0]?.current).toBe(true);
  });

  it("after 'everywhere', no token from before the registry of that user is adopted; another user's still is", async () => {
    const store = memorySessionStore();
    const { config } = sessionControlConfig(store);
    const auth = createAuth(config);
    const secret = config.secret as string;
    const oldAda = `${SALT}=${await encode({ token: { sub: "u-ada", name: "Ada" }, secret, salt: SALT })}`;
    const oldBob = `${SALT}=${await encode({ token: { sub: "u-bob", name: "Bob" }, secret, salt: SALT })}`;
    const a = await signIn(auth);
    await auth.api.revokeOtherSessions(as(a));
    expect(await nameOf(auth, oldAda)).toBeNull();
    expect(await nameOf(auth, oldBob)).toBe("Bob");
    // The mark is no session: not listed, not counted.
    expect(await auth.api.listSessions(as(a))).toHaveLength(1);
    await auth.api.revokeUserSessions({ userId: "u-bob" });
    expect(await nameOf(auth, oldBob)).toBeNull();
  });

  it("a record of another user does not carry a session: the token's user must own it", async () => {
    const store = memorySessionStore();
    const { config } = sessionControlConfig(store);
    const auth = createAuth(config);
    const bob = await signIn(auth, "bob");
    const bobId = (await store.listByUser("u-bob"))[0]?.id as string;
    const stolenId = await encode({ token: { sub: "u-ada", name: "Ada", sid: bobId }, secret: config.secret as string, salt: SALT });
    expect(await nameOf(auth, `${SALT}=${stolenId}`)).toBeNull();
    expect(await nameOf(auth, bob)).toBe("Bob");
  });

  it("keeps the record's id even when the jwt callback returns a token without it", async () => {
    const { config } = sessionControlConfig(memorySessionStore(), { session: { updateAge: 0 } });
    config.callbacks = { jwt: ({ token }) => ({ sub: token.sub, name: token.name }) };
    const auth = createAuth(config);
    const a = await signIn(auth);
    const read = await auth.api.getSession(as(a));
    expect(read.session?.user?.name).toBe("Ada");
    // Re-issued (updateAge 0) and still registered: the next check with the new cookie works.
    const next = read.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect(next).not.toBe("");
    expect(await nameOf(auth, next)).toBe("Ada");
  });

  it("moves lastSeenAt only when the token is re-issued (updateAge), never per check", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = memorySessionStore();
    const touches: string[] = [];
    const counting: SessionRegistry = { ...store, touch: async (...args) => void touches.push(args[1]) ?? store.touch(...args) };
    const auth = createAuth(sessionControlConfig(counting, { session: { updateAge: 3600 } }).config);
    const a = await signIn(auth);
    const [before] = (await store.listByUser("u-ada")) as [SessionRecord];
    for (let i = 0; i < 5; i++) await nameOf(auth, a);
    expect(touches).toEqual([]);
    vi.setSystemTime(Date.now() + 3601_000);
    expect(await nameOf(auth, a)).toBe("Ada");
    expect(touches).toEqual([before.id]);
    const [after] = (await store.listByUser("u-ada")) as [SessionRecord];
    expect(after.lastSeenAt.getTime()).toBeGreaterThan(before.lastSeenAt.getTime());
    expect(after.expires.getTime()).toBeGreaterThan(before.expires.getTime());
  });

  it("keeps at most maxPerUser sessions per user: the least recently seen ends (reason limit)", async () => {
    const { config, revoked } = sessionControlConfig(memorySessionStore(), { session: { maxPerUser: 2 } });
    const auth = createAuth(config);
    const first = await signIn(auth);
    const second = await signIn(auth);
    const third = await signIn(auth);
    expect([await nameOf(auth, first), await nameOf(auth, second), await nameOf(auth, third)]).toEqual([null, "Ada", "Ada"]);
    expect(revoked.map((r) => r.reason)).toEqual(["limit"]);
  });

  it("a registry that fails gives no session for that request and keeps the cookie; the session comes back with it", async () => {
    const store = memorySessionStore();
    let down = false;
    const flaky: SessionRegistry = {
      ...store,
      get: async (...args) => {
        if (down) throw new Error("registry unreachable");
        return store.get(...args);
      },
    };
    const errors: unknown[] = [];
    const config: AuthConfig = {
      ...sessionControlConfig(flaky, { session: { revocation: "strict" } }).config,
      logger: { error: (e) => void errors.push(e), warn: () => {} },
    };
    const auth = createAuth(config);
    const a = await signIn(auth);
    down = true;
    const read = await auth.api.getSession(as(a));
    expect(read).toEqual({ session: null, cookies: [] });
    expect(errors.some((e) => (e as Error).name === "SessionTokenError")).toBe(true);
    down = false;
    expect(await nameOf(auth, a)).toBe("Ada");
  });
});

describe("device labels", () => {
  it("labels common browsers and systems; keeps nothing else of the header", () => {
    const cases: Array<[string | null, string | null]> = [
      [
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
        "Chrome on macOS",
      ],
      [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0",
        "Edge on Windows",
      ],
      [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
        "Safari on iOS",
      ],
      [
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
        "Chrome on Android",
      ],
      ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"],
      ["curl/8.5.0", null],
      [null, null],
      [`${"A".repeat(10_000)} Firefox/1`, null],
    ];
    for (const [header, label] of cases) expect(describeUserAgent(header)).toBe(label);
  });

  it("shows the network, not the address: IPv4 /24, IPv6 /48; nothing for what is not an address", () => {
    expect(addressPrefix("203.0.113.77")).toBe("203.0.113.0/24");
    expect(addressPrefix("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(addressPrefix("2001:db8:abcd:12::1")).toBe("2001:db8:abcd::/48");
    expect(addressPrefix("[2001:db8::1%eth0]")).toBe("2001:db8:0::/48");
    expect(addressPrefix("300.1.1.1")).toBeNull();
    expect(addressPrefix("client-7")).toBeNull();
  });
});
