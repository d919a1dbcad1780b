/**
 * The light part of the session registry, loaded with every instance: which registry a configuration
 * has, the claim and id format of registered sessions, and the loader of the rest
 * (`session/registry.ts`), which an instance loads with its first registry operation. An app without a
 * registry never loads that code.
 *
 * @module session/registry-of
 */
import type { InternalOptions } from "../types/internal.js";
import type { SessionRegistry } from "../types/session-registry.js";

export { isSessionId, SESSION_ID_CLAIM } from "./session-id.js";

/** The adapter's session record methods as a registry. */
function adapterRegistry(records: NonNullable<InternalOptions["capabilities"]["sessionRecords"]>): SessionRegistry {
  return {
    create: async (record) => records.createSessionRecord(record),
    get: async (userId, id) => records.getSessionRecord(userId, id),
    listByUser: async (userId) => records.listSessionRecords(userId),
    touch: async (userId, id, lastSeenAt, expires) => records.touchSessionRecord(userId, id, lastSeenAt, expires),
    delete: async (userId, ids, except) => records.deleteSessionRecords(userId, ids, except),
  };
}

/**
 * The registry of a configuration (resolved once, `resolve.ts`): for JWT sessions `session.store` when
 * set (an explicit choice, e.g. Redis beside a SQL adapter), else the adapter's session records; for
 * database sessions the adapter's records (the rows are the records). `undefined` when there is none.
 */
export function resolveSessionRegistry(
  strategy: "jwt" | "database",
  capabilities: InternalOptions["capabilities"],
  store: SessionRegistry | undefined,
): SessionRegistry | undefined {
  if (strategy === "jwt" && store) return store;
  return capabilities.sessionRecords ? adapterRegistry(capabilities.sessionRecords) : undefined;
}

type RegistryCode = typeof import("./registry.js");

/** The registry's code: loaded once, by the first registry operation of any instance. */
let registryCode: Promise<RegistryCode> | undefined;
/** The same code once it has loaded, for the session check's path that need not wait for anything. */
let loadedRegistryCode: RegistryCode | undefined;

/** The registry's code (`session/registry.ts`), loaded on first use. */
export function loadRegistry(): Promise<RegistryCode> {
  registryCode ??= import("./registry.js").then((code) => {
    loadedRegistryCode = code;
    return code;
  });
  return registryCode;
}

/** The registry's code if it has loaded already, else `undefined` (then {@link loadRegistry}). */
export function loadedRegistry(): RegistryCode | undefined {
  return loadedRegistryCode;
}
