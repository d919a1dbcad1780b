/**
 * An adapter on plain maps, for the tests that drive `Auth()` or a session strategy many times per second
 * (the route, session and passkey tests): no database start-up, so each test takes milliseconds. The real
 * adapters (PGlite, PostgreSQL) are tested against the same routes in their own files; this one keeps the
 * rules a database enforces that the routes rely on: one account per provider account, an unknown session
 * updated to `null`, stored rows handed out as copies where a caller may change what it got.
 */
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser } from "../../src/adapters.js";

/** The adapter and the state behind it, which tests read and change directly. */
export interface MemoryAdapter {
  /** Every method but the verification tokens: users, accounts, sessions, authenticators. */
  adapter: Adapter;
  users: Map<string, AdapterUser>;
  /** Linked accounts, in the order they were linked. */
  accounts: AdapterAccount[];
  /** Database sessions by token. */
  sessions: Map<string, AdapterSession>;
  /** Passkeys by credential id. */
  authenticators: Map<string, AdapterAuthenticator>;
  /** Every call of a session method (create, get, update, delete), in order, with its argument. */
  calls: Array<[string, unknown]>;
}

/** A fresh, empty in-memory adapter. */
export function memoryAdapter(): MemoryAdapter {
  const users = new Map<string, AdapterUser>();
  const accounts: AdapterAccount[] = [];
  const sessions = new Map<string, AdapterSession>();
  const authenticators = new Map<string, AdapterAuthenticator>();
  const calls: Array<[string, unknown]> = [];
  const accountOf = (provider: string, providerAccountId: string) =>
    accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId);

  const adapter: Adapter = {
    createUser: (user) => {
      // An adapter gives a user without an id one of its own (as a database's default does).
      const created = { ...user, id: user.id ?? crypto.randomUUID() };
      users.set(created.id, created);
      return created;
    },
    getUser: (id) => users.get(id) ?? null,
    getUserByEmail: (email) => [...users.values()].find((u) => u.email === email) ?? null,
    getUserByAccount: ({ provider, providerAccountId }) => {
      const account = accountOf(provider, providerAccountId);
      return (account && users.get(account.userId)) ?? null;
    },
    updateUser: (user) => {
      const updated = { ...(users.get(user.id) as AdapterUser), ...user };
      users.set(user.id, updated);
      return updated;
    },
    deleteUser: (id) => {
      users.delete(id);
    },
    // A database's unique key on (provider, providerAccountId): a second link of one account fails.
    linkAccount: (account) => {
      if (accountOf(account.provider, account.providerAccountId)) throw new Error("account already linked");
      accounts.push(account);
      return account;
    },
    getAccount: (providerAccountId, provider) => accountOf(provider, providerAccountId) ?? null,
    listAccountsByUserId: (userId) => accounts.filter((a) => a.userId === userId),
    updateAccount: (account) => {
      const index = accounts.findIndex((a) => a.provider === account.provider && a.providerAccountId === account.providerAccountId);
      if (index < 0) return null;
      accounts[index] = { ...(accounts[index] as AdapterAccount), ...account };
      return accounts[index] as AdapterAccount;
    },
    createSession: (session) => {
      calls.push(["createSession", session]);
      sessions.set(session.sessionToken, session);
      return session;
    },
    // A copy: the strategy may change the session it got without changing the stored row.
    getSessionAndUser: (sessionToken) => {
      calls.push(["getSessionAndUser", sessionToken]);
      const session = sessions.get(sessionToken);
      const user = session && users.get(session.userId);
      return session && user ? { session: { ...session }, user } : null;
    },
    updateSession: (session) => {
      calls.push(["updateSession", session]);
      const stored = sessions.get(session.sessionToken);
      if (!stored) return null;
      const updated = { ...stored, ...session };
      sessions.set(session.sessionToken, updated);
      return updated;
    },
    deleteSession: (sessionToken) => {
      calls.push(["deleteSession", sessionToken]);
      const stored = sessions.get(sessionToken);
      sessions.delete(sessionToken);
      return stored ?? null;
    },
    getAuthenticator: (credentialID) => authenticators.get(credentialID) ?? null,
    createAuthenticator: (authenticator) => {
      authenticators.set(authenticator.credentialID, authenticator);
      return authenticator;
    },
    listAuthenticatorsByUserId: (userId) => [...authenticators.values()].filter((a) => a.userId === userId),
    updateAuthenticatorCounter: (credentialID, counter) => {
      const authenticator = authenticators.get(credentialID);
      if (!authenticator) throw new Error("no such authenticator");
      const updated = { ...authenticator, counter };
      authenticators.set(credentialID, updated);
      return updated;
    },
  };
  return { adapter, users, accounts, sessions, authenticators, calls };
}
