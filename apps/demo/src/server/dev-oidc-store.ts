/**
 * Storage of the demo's OpenID Provider, in memory: codes, grants, interactions and OP sessions live
 * as long as the process. oidc-provider's own memory store would do too, but warns on every start.
 */

/** What oidc-provider stores: a payload, looked up by id and sometimes by these fields. */
type StoredPayload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

interface Entry {
  payload: StoredPayload;
  expiresAt: number;
}

/** The adapter interface oidc-provider expects: one instance per model name ("Session", "Grant", …). */
export interface OidcStorageModel {
  upsert(id: string, payload: StoredPayload, expiresIn: number): Promise<void>;
  find(id: string): Promise<StoredPayload | undefined>;
  findByUid(uid: string): Promise<StoredPayload | undefined>;
  findByUserCode(userCode: string): Promise<StoredPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** Makes the adapter class for oidc-provider's `adapter` option, over one fresh in-memory store. */
export function memoryOidcStorage(): new (model: string) => OidcStorageModel {
  const store = new Map<string, Entry>();
  const live = (entry: Entry | undefined) => (entry && entry.expiresAt > Date.now() ? entry.payload : undefined);

  return class MemoryOidcStorage implements OidcStorageModel {
    readonly #prefix: string;

    constructor(model: string) {
      this.#prefix = `${model}:`;
    }

    async upsert(id: string, payload: StoredPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
      store.set(this.#prefix + id, { payload, expiresAt });
    }

    async find(id: string): Promise<StoredPayload | undefined> {
      return live(store.get(this.#prefix + id));
    }

    async findByUid(uid: string): Promise<StoredPayload | undefined> {
      return this.#findBy((payload) => payload.uid === uid);
    }

    async findByUserCode(userCode: string): Promise<StoredPayload | undefined> {
      return this.#findBy((payload) => payload.userCode === userCode);
    }

    async consume(id: string): Promise<void> {
      const payload = live(store.get(this.#prefix + id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.delete(this.#prefix + id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }

    #findBy(matches: (payload: StoredPayload) => boolean): StoredPayload | undefined {
      for (const [key, entry] of store) {
        if (key.startsWith(this.#prefix) && matches(entry.payload)) return live(entry);
      }
      return undefined;
    }
  };
}
