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

/** The records by id and each user's record ids, bounded by `maxSessions` (see the module comment). */
class SessionRecords {
  readonly byId = new Map<string, SessionRecord>();
  readonly #byUser = new Map<string, Set<string>>();

  constructor(readonly maxSessions: number) {}

  /** The ids of `userId`'s records, live or not. */
  idsOf(userId: string): string[] {
    return [...(this.#byUser.get(userId) ?? [])];
  }

  /** Keeps `record` (a copy), in place of any record with its id. */
  add(record: SessionRecord): void {
    if (this.byId.size >= this.maxSessions) this.#makeRoom();
    this.remove(record.id);
    this.byId.set(record.id, copy(record));
    const ids = this.#byUser.get(record.userId) ?? new Set<string>();
    this.#byUser.set(record.userId, ids);
    ids.add(record.id);
  }

  remove(id: string): SessionRecord | undefined {
    const record = this.byId.get(id);
    if (!record) return undefined;
    this.byId.delete(id);
    const ids = this.#byUser.get(record.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.#byUser.delete(record.userId);
    return record;
  }

  /** The record `id` while it has not expired at `now`; an expired one is removed. */
  live(id: string, now: number): SessionRecord | undefined {
    const record = this.byId.get(id);
    if (record && record.expires.getTime() <= now) {
      this.remove(id);
      return undefined;
    }
    return record;
  }

  /** Drops every expired record, then the records closest to their expiry until one more fits. */
  #makeRoom(): void {
    const now = Date.now();
    for (const [id, record] of this.byId) if (record.expires.getTime() <= now) this.remove(id);
    while (this.byId.size >= this.maxSessions) {
      let soonest: SessionRecord | undefined;
      for (const record of this.byId.values()) if (!soonest || record.expires < soonest.expires) soonest = record;
      this.remove((soonest as SessionRecord).id);
    }
  }
}

/** Session records in memory (see the module comment). */
export function memorySessionStore(options: MemorySessionStoreOptions = {}): SessionRegistry {
  const records = new SessionRecords(options.maxSessions ?? 100_000);

  return {
    async create(record) {
      records.add(record);
    },
    async get(userId, id) {
      const record = records.live(id, Date.now());
      return record?.userId === userId ? copy(record) : null;
    },
    async listByUser(userId) {
      const now = Date.now();
      return records.idsOf(userId).flatMap((id) => {
        const record = records.live(id, now);
        return record ? [copy(record)] : [];
      });
    },
    async touch(userId, id, lastSeenAt, expires) {
      const record = records.byId.get(id);
      if (record?.userId === userId) records.byId.set(id, { ...record, lastSeenAt: new Date(lastSeenAt), expires: new Date(expires) });
    },
    async delete(userId, ids, except) {
      const candidates = ids ?? records.idsOf(userId);
      const deleted: SessionRecord[] = [];
      const now = Date.now();
      for (const id of candidates) {
        if (id === except || records.byId.get(id)?.userId !== userId) continue;
        const record = records.remove(id) as SessionRecord;
        // An expired record was no session any more: dropped, not answered as ended.
        if (record.expires.getTime() > now) deleted.push(record);
      }
      return deleted;
    },
  };
}
