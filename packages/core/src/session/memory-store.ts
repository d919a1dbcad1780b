/**
 * `memorySessionStore()`: session records in this process's memory. For one process (development, a
 * single server): a second instance does not see them, and a restart forgets them, which signs out every
 * JWT session registered here. Use `redisSessionStore` or `hostedDbSessionStore` for more than one.
 *
 * Bounded: at most `maxSessions` records; past it, the record closest to its expiry goes first (its JWT
 * session then ends). A record is only made by a sign-in, and authlib keeps at most `session.maxPerUser`
 * per user, so filling it takes that many users signing in.
 *
 * @module session/memory-store
 */
import type { SessionRecord, SessionRegistry } from "../types/session-registry.js";

/** Settings of {@link memorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** The most records kept. Default 100,000. */
  maxSessions?: number;
}

/** A private copy: a caller that edits a returned record cannot change the stored one. */
function copy(record: SessionRecord): SessionRecord {
  return {
    ...record,
    createdAt: new Date(record.createdAt),
    lastSeenAt: new Date(record.lastSeenAt),
    expires: new Date(record.expires),
  };
}

/** Session records in memory (see the module comment). */
export function memorySessionStore(options: MemorySessionStoreOptions = {}): SessionRegistry {
  const maxSessions = options.maxSessions ?? 100_000;
  const byId = new Map<string, SessionRecord>();
  const byUser = new Map<string, Set<string>>();

  const remove = (id: string): SessionRecord | undefined => {
    const record = byId.get(id);
    if (!record) return undefined;
    byId.delete(id);
    const ids = byUser.get(record.userId);
    ids?.delete(id);
    if (ids?.size === 0) byUser.delete(record.userId);
    return record;
  };
  const live = (id: string, now: number): SessionRecord | undefined => {
    const record = byId.get(id);
    if (record && record.expires.getTime() <= now) {
      remove(id);
      return undefined;
    }
    return record;
  };
  const makeRoom = () => {
    const now = Date.now();
    for (const [id, record] of byId) if (record.expires.getTime() <= now) remove(id);
    while (byId.size >= maxSessions) {
      let soonest: SessionRecord | undefined;
      for (const record of byId.values()) if (!soonest || record.expires < soonest.expires) soonest = record;
      remove((soonest as SessionRecord).id);
    }
  };

  return {
    async create(record) {
      if (byId.size >= maxSessions) makeRoom();
      remove(record.id);
      byId.set(record.id, copy(record));
      const ids = byUser.get(record.userId) ?? new Set<string>();
      byUser.set(record.userId, ids);
      ids.add(record.id);
    },
    async get(userId, id) {
      const record = live(id, Date.now());
      return record?.userId === userId ? copy(record) : null;
    },
    async listByUser(userId) {
      const now = Date.now();
      return [...(byUser.get(userId) ?? [])].flatMap((id) => {
        const record = live(id, now);
        return record ? [copy(record)] : [];
      });
    },
    async touch(userId, id, lastSeenAt, expires) {
      const record = byId.get(id);
      if (record?.userId === userId) byId.set(id, { ...record, lastSeenAt: new Date(lastSeenAt), expires: new Date(expires) });
    },
    async delete(userId, ids, except) {
      const candidates = ids ?? [...(byUser.get(userId) ?? [])];
      const deleted: SessionRecord[] = [];
      const now = Date.now();
      for (const id of candidates) {
        if (id === except || byId.get(id)?.userId !== userId) continue;
        const record = remove(id) as SessionRecord;
        // An expired record was no session any more: dropped, not answered as ended.
        if (record.expires.getTime() > now) deleted.push(record);
      }
      return deleted;
    },
  };
}
