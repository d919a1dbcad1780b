/**
 * The admin feature's adapter methods (`AdminAdapterMethods`) over the in-memory adapter's users: a page of
 * users in id order (byte order, as PostgreSQL's "C" collation sorts), and bans kept by user, copied in and
 * out. An expired ban is kept (the store answers it; core decides it no longer counts) until `prune`.
 */
import type { AdapterUser, AdminAdapterMethods, UserBan } from "../../src/types/adapters.js";

/** The methods and the bans they keep, for a test that looks at what was stored. */
export interface MemoryAdmin {
  methods: Required<AdminAdapterMethods>;
  bans: Map<string, UserBan>;
  /** Deletes the bans past their end (what the hosted database's prune does). */
  prune(now?: Date): number;
}

const copy = (ban: UserBan): UserBan => structuredClone(ban);
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Admin methods over `users` (the in-memory adapter's map). */
export function memoryAdmin(users: Map<string, AdapterUser>): MemoryAdmin {
  const bans = new Map<string, UserBan>();
  const live = (ban: UserBan | undefined, now: Date) => !!ban && (ban.expiresAt === null || ban.expiresAt > now);
  const methods: Required<AdminAdapterMethods> = {
    listUsers: ({ search, banned, after, limit, now }) => {
      const needle = search?.toLowerCase();
      return [...users.values()]
        .filter((user) => after === undefined || byteOrder(user.id, after) > 0)
        .filter((user) => !needle || [user.email, user.name].some((value) => value?.toLowerCase().includes(needle)))
        .filter((user) => banned === undefined || live(bans.get(user.id), now) === banned)
        .sort((a, b) => byteOrder(a.id, b.id))
        .slice(0, limit)
        .map((user) => {
          const ban = bans.get(user.id);
          return { user: { ...user }, ban: ban && live(ban, now) ? copy(ban) : null };
        });
    },
    getUserBan: (userId) => {
      const ban = bans.get(userId);
      return ban ? copy(ban) : null;
    },
    saveUserBan: (ban) => {
      bans.set(ban.userId, copy(ban));
    },
    deleteUserBan: (userId) => {
      bans.delete(userId);
    },
  };
  const prune = (now = new Date()) => {
    let pruned = 0;
    for (const [userId, ban] of bans) if (!live(ban, now)) pruned += Number(bans.delete(userId));
    return pruned;
  };
  return { methods, bans, prune };
}
