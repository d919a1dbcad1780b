/**
 * The adapter methods the passkey routes and database sessions use, on plain maps: for tests that drive
 * many passkey flows and need no database start-up. Tests of what a database does use the hosted-db
 * adapter on PGlite instead.
 */
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser } from "../../src/adapters.js";

/** A passkey-capable adapter on plain maps (no verification-token methods). */
export function memoryAdapter() {
  const users = new Map<string, AdapterUser>();
  const accounts = new Map<string, AdapterAccount>();
  const sessions = new Map<string, AdapterSession>();
  const authenticators = new Map<string, AdapterAuthenticator>();
  const accountKey = (provider: string, providerAccountId: string) => `${provider}:${providerAccountId}`;
  const adapter: Adapter = {
    createUser: (user) => {
      const created = { ...user, id: user.id ?? crypto.randomUUID() };
      users.set(created.id, created);
      return created;
    },
    getUser: (id) => users.get(id) ?? null,
    getUserByEmail: (email) => [...users.values()].find((u) => u.email === email) ?? null,
    getUserByAccount: ({ provider, providerAccountId }) => {
      const account = accounts.get(accountKey(provider, providerAccountId));
      return account ? (users.get(account.userId) ?? null) : null;
    },
    updateUser: (user) => {
      const updated = { ...users.get(user.id)!, ...user };
      users.set(user.id, updated);
      return updated;
    },
    deleteUser: (id) => {
      users.delete(id);
    },
    linkAccount: (account) => {
      const key = accountKey(account.provider, account.providerAccountId);
      if (accounts.has(key)) throw new Error("account already linked");
      accounts.set(key, account);
      return account;
    },
    getAccount: (providerAccountId, provider) => accounts.get(accountKey(provider, providerAccountId)) ?? null,
    listAccountsByUserId: (userId) => [...accounts.values()].filter((a) => a.userId === userId),
    createSession: (session) => {
      sessions.set(session.sessionToken, session);
      return session;
    },
    getSessionAndUser: (token) => {
      const session = sessions.get(token);
      const user = session && users.get(session.userId);
      return session && user ? { session, user } : null;
    },
    updateSession: (session) => {
      const current = sessions.get(session.sessionToken);
      if (!current) return null;
      const updated = { ...current, ...session };
      sessions.set(session.sessionToken, updated);
      return updated;
    },
    deleteSession: (token) => {
      const session = sessions.get(token) ?? null;
      sessions.delete(token);
      return session;
    },
    getAuthenticator: (id) => authenticators.get(id) ?? null,
    createAuthenticator: (authenticator) => {
      authenticators.set(authenticator.credentialID, authenticator);
      return authenticator;
    },
    listAuthenticatorsByUserId: (userId) => [...authenticators.values()].filter((a) => a.userId === userId),
    updateAuthenticatorCounter: (id, counter) => {
      const authenticator = authenticators.get(id);
      if (!authenticator) throw new Error("no such authenticator");
      const updated = { ...authenticator, counter };
      authenticators.set(id, updated);
      return updated;
    },
  };
  return { adapter, users, authenticators };
}
