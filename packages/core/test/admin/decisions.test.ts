/**
 * The decisions of the admin feature, unit by unit (fast: the mutation group `admin` runs these): who is an
 * admin (roles, `isAdmin`, both, neither; a role that is not text), `requireAdmin` (no session, an `act`
 * claim, a user the store lost, a non-admin, an admin; the audit's user set), what an admin may not do to
 * themselves or another admin, whether a ban holds (no end, an end to come, an end just passed, exactly now),
 * and the sign-in refusal (the app's message, the built-in one, none).
 */
import { describe, expect, it, vi } from "vitest";
import { adminConfigOf, assertMayActOn, isAdminUser, requireAdmin } from "../../src/features/admin/access.js";
import { banRefusal, isBanLive } from "../../src/features/admin/bans.js";
import type { AdapterUser, UserBan } from "../../src/types/adapters.js";
import type { AdminConfig } from "../../src/types/admin.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";

const user = (id: string, role?: unknown): AdapterUser =>
  ({ id, email: `${id}@example.com`, emailVerified: null, ...(role === undefined ? {} : { role }) }) as AdapterUser;

/** Options whose session is `session` (`null`: none) and whose store holds `users`. */
function optionsWith(
  admin: AdminConfig,
  session: { userId: string; act?: { sub: string } } | null,
  users: AdapterUser[],
  bans: UserBan[] = [],
) {
  return {
    config: { admin },
    adapter: {
      getUser: async (id: string) => users.find((u) => u.id === id) ?? null,
      getUserBan: async (id: string) => bans.find((b) => b.userId === id) ?? null,
    },
    sessionStrategy: {
      currentAssurance: async () =>
        session ? { userId: session.userId, assurance: { amr: ["pwd"], aal: 1, ...(session.act ? { act: session.act } : {}) } } : null,
    },
  } as unknown as InternalOptions;
}

describe("who is an admin", () => {
  it("a role among `roles`, or `isAdmin` answering exactly true", async () => {
    expect(await isAdminUser({ roles: ["admin", "ops"] }, user("a", "ops"))).toBe(true);
    expect(await isAdminUser({ roles: ["admin"] }, user("a", "member"))).toBe(false);
    expect(await isAdminUser({ roles: ["admin"] }, user("a"))).toBe(false);
    expect(await isAdminUser({ roles: ["admin"] }, user("a", ["admin"]))).toBe(false);
    expect(await isAdminUser({}, user("a", "admin"))).toBe(false);
    expect(await isAdminUser({ isAdmin: (u) => u.id === "boss" }, user("boss"))).toBe(true);
    expect(await isAdminUser({ isAdmin: async () => true }, user("x"))).toBe(true);
    expect(await isAdminUser({ isAdmin: () => "yes" as unknown as boolean }, user("x"))).toBe(false);
    expect(await isAdminUser({ roles: ["admin"], isAdmin: () => false }, user("x", "admin"))).toBe(true);
    expect(await isAdminUser({ roles: ["admin"], isAdmin: () => true }, user("x", "member"))).toBe(true);
    expect(adminConfigOf({ config: {} as never })).toEqual({});
  });
});

describe("requireAdmin", () => {
  const admins: AdminConfig = { roles: ["admin"] };
  it("refuses no session (SessionRequired), an act claim, a lost user and a non-admin (AccessDenied, 403)", async () => {
    await expect(requireAdmin(optionsWith(admins, null, []), {} as RequestInternal)).rejects.toMatchObject({
      type: "SessionRequired",
      status: 401,
    });
    const request = {} as RequestInternal;
    await expect(
      requireAdmin(optionsWith(admins, { userId: "a", act: { sub: "b" } }, [user("a", "admin")]), request),
    ).rejects.toMatchObject({
      type: "AccessDenied",
      status: 403,
    });
    expect(request.auditUserId).toBe("a");
    await expect(requireAdmin(optionsWith(admins, { userId: "gone" }, []), {} as RequestInternal)).rejects.toMatchObject({
      type: "AccessDenied",
      status: 403,
    });
    await expect(requireAdmin(optionsWith(admins, { userId: "m" }, [user("m", "member")]), {} as RequestInternal)).rejects.toMatchObject({
      type: "AccessDenied",
      status: 403,
    });
    const noAdapter = { ...optionsWith(admins, { userId: "a" }, []), adapter: undefined } as unknown as InternalOptions;
    await expect(requireAdmin(noAdapter, {} as RequestInternal)).rejects.toMatchObject({ type: "AccessDenied" });
  });

  it("each refusal says what to do: sign in, stop acting as someone, or ask an admin", async () => {
    const admins: AdminConfig = { roles: ["admin"] };
    const message = (promise: Promise<unknown>) => promise.then(String, (error: Error) => error.message);
    expect(await message(requireAdmin(optionsWith(admins, null, []), {} as RequestInternal))).toBe(
      "Sign in first: the request has no session.",
    );
    expect(
      await message(requireAdmin(optionsWith(admins, { userId: "a", act: { sub: "b" } }, [user("a", "admin")]), {} as RequestInternal)),
    ).toBe("An impersonated session reaches no admin operation.");
    expect(await message(requireAdmin(optionsWith(admins, { userId: "m" }, [user("m", "member")]), {} as RequestInternal))).toBe(
      "Only an admin may do this.",
    );
  });

  it("answers the admin: their id and row", async () => {
    const row = user("a", "admin");
    expect(await requireAdmin(optionsWith(admins, { userId: "a" }, [row]), {} as RequestInternal)).toEqual({ userId: "a", user: row });
  });
});

describe("what an admin may not do", () => {
  const options = { config: { admin: { roles: ["admin"] } } } as unknown as InternalOptions;
  const me = { userId: "me", user: user("me", "admin") };
  it("refuses acting on themselves or another admin, for each guarded act; allows a plain user", async () => {
    for (const act of ["ban", "delete", "setPassword", "changeEmail"] as const) {
      await expect(assertMayActOn(options, me, user("me", "admin"), act)).rejects.toMatchObject({ type: "AccessDenied", status: 403 });
      await expect(assertMayActOn(options, me, user("peer", "admin"), act)).rejects.toMatchObject({ type: "AccessDenied", status: 403 });
      await expect(assertMayActOn(options, me, user("plain", "member"), act)).resolves.toBeUndefined();
    }
    await expect(assertMayActOn(options, me, user("me"), "ban")).rejects.toThrow(/themselves/);
  });

  it("names the act refused, for each act, in a module loaded afresh (the acts' names are module constants)", async () => {
    vi.resetModules();
    const fresh = await import("../../src/features/admin/access.js");
    const said = (target: AdapterUser, act: "ban" | "delete" | "setPassword" | "changeEmail") =>
      fresh.assertMayActOn(options, me, target, act).then(
        () => "allowed",
        (error: Error) => error.message,
      );
    expect(await said(user("me"), "ban")).toBe("An admin cannot ban themselves: use the account's own pages.");
    expect(await said(user("peer", "admin"), "ban")).toBe("An admin cannot ban another admin: demote them first.");
    expect(await said(user("peer", "admin"), "delete")).toBe("An admin cannot delete another admin: demote them first.");
    expect(await said(user("me"), "setPassword")).toBe("An admin cannot set the password of themselves: use the account's own pages.");
    expect(await said(user("peer", "admin"), "changeEmail")).toBe(
      "An admin cannot change the address of another admin: demote them first.",
    );
    await expect(assertMayActOn(options, me, user("peer", "admin"), "delete")).rejects.toThrow(/another admin/);
    await expect(assertMayActOn(options, me, user("peer", "admin"), "setPassword")).rejects.toThrow(/set the password of another admin/);
    await expect(assertMayActOn(options, me, user("peer", "admin"), "changeEmail")).rejects.toThrow(/change the address of another admin/);
  });
});

describe("whether a ban holds", () => {
  const ban = (expiresAt: Date | null): UserBan => ({ userId: "u", reason: null, bannedBy: null, createdAt: new Date(0), expiresAt });
  it("no ban, no end, an end to come, an end passed, an end exactly now", () => {
    const now = 1_000_000;
    expect(isBanLive(null, now)).toBe(false);
    expect(isBanLive(undefined, now)).toBe(false);
    expect(isBanLive(ban(null), now)).toBe(true);
    expect(isBanLive(ban(new Date(now + 1)), now)).toBe(true);
    expect(isBanLive(ban(new Date(now - 1)), now)).toBe(false);
    expect(isBanLive(ban(new Date(now)), now)).toBe(false);
    expect(isBanLive(ban(new Date(Date.now() + 60_000)))).toBe(true);
    expect(isBanLive(ban(new Date(Date.now() - 60_000)))).toBe(false);
  });

  it("the sign-in refusal: UserBanned (403) with the app's message or the built-in one; none without a live ban", async () => {
    const live: UserBan = { userId: "u", reason: "spam", bannedBy: "a", createdAt: new Date(), expiresAt: null };
    const ended: UserBan = { ...live, userId: "e", expiresAt: new Date(Date.now() - 1000) };
    const refusal = await banRefusal(optionsWith({ roles: ["admin"], banMessage: "Write to us." }, null, [], [live, ended]), "u");
    expect(refusal).toMatchObject({ type: "UserBanned", status: 403, kind: "signIn", message: "Write to us." });
    // The built-in message is the module's constant: loaded afresh, so the value read is the one this test runs with.
    vi.resetModules();
    const fresh = await import("../../src/features/admin/bans.js");
    expect((await fresh.banRefusal(optionsWith({ roles: ["admin"] }, null, [], [live]), "u"))?.message).toBe("This account is suspended.");
    expect(await banRefusal(optionsWith({ roles: ["admin"] }, null, [], [live, ended]), "e")).toBeUndefined();
    expect(await banRefusal(optionsWith({ roles: ["admin"] }, null, [], [live]), "other")).toBeUndefined();
    expect(await banRefusal({ adapter: undefined, config: {} } as unknown as InternalOptions, "u")).toBeUndefined();
  });
});
