/**
 * Enterprise SSO's adapter methods (`SsoAdapterMethods`) on plain maps, for the tests that drive the
 * feature: the rules a database keeps are kept here too (a taken connection id throws, one identity per
 * connection and subject, deleting a connection deletes its identities, deleting a user deletes theirs),
 * and records are copied in and out. The hosted-db adapter is held to the same suite
 * (`sso-store-suite.ts`) on PGlite and PostgreSQL.
 */
import type { SsoAdapterMethods, SsoConnection, SsoIdentity } from "../../src/types/sso.js";

/** The in-memory methods and the maps they keep, for a test that looks at what was stored. */
export interface MemorySso {
  methods: Required<SsoAdapterMethods>;
  connections: Map<string, SsoConnection>;
  identities: Map<string, SsoIdentity>;
  /** Deletes a user's identities (what a database's foreign key does when the user goes). */
  deleteUser(userId: string): void;
}

const copy = <T>(value: T): T => structuredClone(value);
const identityKey = (connectionId: string, subject: string) => JSON.stringify([connectionId, subject]);

/** A fresh in-memory store of connections and identities. */
export function memorySso(): MemorySso {
  const connections = new Map<string, SsoConnection>();
  const identities = new Map<string, SsoIdentity>();
  const methods: Required<SsoAdapterMethods> = {
    createSsoConnection(connection) {
      if (connections.has(connection.id)) throw new Error(`unique violation: connection ${JSON.stringify(connection.id)}`);
      connections.set(connection.id, copy(connection));
      return copy(connection);
    },
    getSsoConnection: (id) => copy(connections.get(id) ?? null),
    listSsoConnections: (organizationId) =>
      [...connections.values()]
        .filter((connection) => connection.organizationId === organizationId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map(copy),
    updateSsoConnection(connection) {
      if (!connections.has(connection.id)) throw new Error("no such connection");
      connections.set(connection.id, copy(connection));
      return copy(connection);
    },
    deleteSsoConnection(id) {
      connections.delete(id);
      for (const [key, identity] of identities) if (identity.connectionId === id) identities.delete(key);
    },
    getSsoIdentity: (connectionId, subject) => copy(identities.get(identityKey(connectionId, subject)) ?? null),
    createSsoIdentity(identity) {
      const key = identityKey(identity.connectionId, identity.subject);
      if (identities.has(key)) throw new Error("unique violation: sso identity");
      if (!connections.has(identity.connectionId)) throw new Error("foreign key violation: connection");
      identities.set(key, copy(identity));
      return copy(identity);
    },
  };
  return {
    methods,
    connections,
    identities,
    deleteUser(userId) {
      for (const [key, identity] of identities) if (identity.userId === userId) identities.delete(key);
    },
  };
}
