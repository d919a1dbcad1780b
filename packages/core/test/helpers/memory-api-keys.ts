/**
 * API keys' adapter methods (`ApiKeyAdapterMethods`) on a plain map, for the tests that drive the feature:
 * the rules a database keeps are kept here too (a taken id throws, a revoked key keeps its first
 * `revokedAt`, `touchApiKey` writes only past its interval), and records are copied in and out. The hosted-db
 * adapter is held to the same suite (`api-key-store-suite.ts`) on PGlite and PostgreSQL.
 */
import type { ApiKeyAdapterMethods, ApiKeyRecord } from "../../src/types/api-keys.js";

/** The in-memory methods and the map they keep, for a test that looks at what was stored. */
export interface MemoryApiKeys {
  methods: Required<ApiKeyAdapterMethods>;
  keys: Map<string, ApiKeyRecord>;
  /** The name of every method called, in order (what a test counts store reads with). */
  calls: string[];
  /** Deletes a user's keys (what a database's foreign key does when the user goes). */
  deleteUser(userId: string): void;
}

const copy = <T>(value: T): T => structuredClone(value);
const byCreation = (a: ApiKeyRecord, b: ApiKeyRecord) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

/** A fresh in-memory store of API keys. */
export function memoryApiKeys(): MemoryApiKeys {
  const keys = new Map<string, ApiKeyRecord>();
  const calls: string[] = [];
  const plain: Required<ApiKeyAdapterMethods> = {
    createApiKey(key) {
      if (keys.has(key.id)) throw new Error(`unique violation: api key ${JSON.stringify(key.id)}`);
      keys.set(key.id, copy(key));
      return copy(key);
    },
    getApiKey: (id) => copy(keys.get(id) ?? null),
    listApiKeysByUser: (userId) =>
      [...keys.values()]
        .filter((key) => key.userId === userId)
        .sort(byCreation)
        .map(copy),
    listApiKeysByOrganization: (organizationId) =>
      [...keys.values()]
        .filter((key) => key.organizationId === organizationId)
        .sort(byCreation)
        .map(copy),
    revokeApiKey(id, revokedAt) {
      const key = keys.get(id);
      if (key && key.revokedAt === null) key.revokedAt = new Date(revokedAt);
    },
    revokeApiKeysByUser(userId, revokedAt) {
      for (const key of keys.values()) if (key.userId === userId && key.revokedAt === null) key.revokedAt = new Date(revokedAt);
    },
    touchApiKey(id, usedAt, minInterval) {
      const key = keys.get(id);
      if (!key || (key.lastUsedAt !== null && key.lastUsedAt.getTime() > usedAt.getTime() - minInterval)) return false;
      key.lastUsedAt = new Date(usedAt);
      return true;
    },
  };
  // Each method notes its call, whatever wraps the adapter later.
  const methods = Object.fromEntries(
    Object.entries(plain).map(([name, method]) => [
      name,
      (...args: never[]) => {
        calls.push(name);
        return (method as (...a: never[]) => unknown)(...args);
      },
    ]),
  ) as unknown as Required<ApiKeyAdapterMethods>;
  return {
    methods,
    keys,
    calls,
    deleteUser(userId) {
      for (const [id, key] of keys) if (key.userId === userId) keys.delete(id);
    },
  };
}
