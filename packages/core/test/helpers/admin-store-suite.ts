/**
 * The admin adapter methods' conformance suite (`AdminAdapterMethods` with the user methods): run on the
 * in-memory methods (core's `test/admin/store.test.ts`) and on the hosted-db adapter (PGlite and
 * PostgreSQL). A page of users is in id order, byte by byte, and never repeats or skips a user across
 * pages while users are inserted; the search is a case-insensitive substring of the address or the name
 * (`%` and `_` match themselves); the ban filter counts only live bans; a ban is replaced by the next one,
 * lifted by `deleteUserBan`, kept when expired (the caller decides), and goes with its user.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Adapter, AdminAdapterMethods, UserBan } from "../../src/types/adapters.js";

type Store = Required<AdminAdapterMethods> & Required<Pick<Adapter, "createUser" | "deleteUser">>;

export interface AdminStoreSuite {
  name: string;
  /** A fresh, empty store. */
  store(): Promise<Store>;
}

export function runAdminStoreSuite({ name, store }: AdminStoreSuite): void {
  describe(name, () => {
    const newUser = async (s: Store, email: string, name: string | null = null) =>
      (await s.createUser({ id: randomUUID(), email, emailVerified: null, name })).id;
    const ban = (userId: string, expiresAt: Date | null, reason: string | null = "spam"): UserBan => ({
      userId,
      reason,
      bannedBy: "admin-1",
      createdAt: new Date(Date.now() - 1000),
      expiresAt,
    });

    it("pages users in byte order of their ids, stable while users are inserted", async () => {
      const s = await store();
      const ids = new Set<string>();
      for (let i = 0; i < 7; i++) ids.add(await newUser(s, `user${i}@example.com`));
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await s.listUsers({ limit: 3, now: new Date(), ...(after ? { after } : {}) });
        seen.push(...page.map((entry) => entry.user.id));
        // Users arrive between pages: they are seen or not, but nobody is repeated or skipped.
        await newUser(s, `late${seen.length}-${randomUUID()}@example.com`);
        if (page.length < 3) break;
        after = page.at(-1)?.user.id;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of ids) expect(seen).toContain(id);
      const sorted = [...seen].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect(seen).toEqual(sorted);
    });

    it("searches the address or the name, case-insensitively, with % and _ as themselves", async () => {
      const s = await store();
      const ada = await newUser(s, "ada.lovelace@example.com", "Ada Lovelace");
      const grace = await newUser(s, "grace@navy.example", "Grace HOPPER");
      const odd = await newUser(s, "100%_sure@example.com", null);
      const ids = async (search: string) =>
        (await s.listUsers({ search, limit: 10, now: new Date() })).map((entry) => entry.user.id).sort();
      expect(await ids("LOVELACE")).toEqual([ada]);
      expect(await ids("hopper")).toEqual([grace]);
      expect(await ids("example")).toEqual([ada, grace, odd].sort());
      expect(await ids("%_")).toEqual([odd]);
      expect(await ids("_")).toEqual([odd]);
      expect(await ids("nobody")).toEqual([]);
    });

    it("keeps one ban per user, answers live bans in the list and its filter, and lifts a ban", async () => {
      const s = await store();
      const banned = await newUser(s, "banned@example.com");
      const expired = await newUser(s, "expired@example.com");
      const free = await newUser(s, "free@example.com");
      await s.saveUserBan(ban(banned, null));
      await s.saveUserBan(ban(banned, new Date(Date.now() + 3_600_000), "second"));
      await s.saveUserBan(ban(expired, new Date(Date.now() - 1000)));
      expect(await s.getUserBan(banned)).toMatchObject({ userId: banned, reason: "second", bannedBy: "admin-1" });
      expect((await s.getUserBan(expired))?.expiresAt?.getTime()).toBeLessThan(Date.now());
      expect(await s.getUserBan(free)).toBeNull();
      const now = new Date();
      const bannedOnly = await s.listUsers({ banned: true, limit: 10, now });
      expect(bannedOnly.map((entry) => entry.user.id)).toEqual([banned]);
      expect(bannedOnly[0]?.ban?.reason).toBe("second");
      const notBanned = (await s.listUsers({ banned: false, limit: 10, now })).map((entry) => entry.user.id).sort();
      expect(notBanned).toEqual([expired, free].sort());
      const all = await s.listUsers({ limit: 10, now });
      expect(all.find((entry) => entry.user.id === expired)?.ban).toBeNull();
      await s.deleteUserBan(banned);
      await s.deleteUserBan(banned);
      expect(await s.getUserBan(banned)).toBeNull();
    });

    it("a ban goes with its user", async () => {
      const s = await store();
      const user = await newUser(s, "gone@example.com");
      await s.saveUserBan(ban(user, null));
      await s.deleteUserBan(user);
      await s.saveUserBan(ban(user, null));
      await s.deleteUser(user);
      expect((await s.listUsers({ limit: 10, now: new Date() })).map((entry) => entry.user.id)).not.toContain(user);
    });
  });
}
