/**
 * An adapter on plain maps, for the tests that drive `Auth()` or a session strategy many times per second
 * (the route, session and passkey tests): no database start-up, so each test takes milliseconds. The real
 * adapters (PGlite, PostgreSQL) are tested against the same routes in their own files; this one keeps the
 * rules a database enforces that the routes rely on: one account per provider account, an unknown session
 * updated to `null`, stored rows handed out as copies where a caller may change what it got.
 *
 * With `{ sessionRecords: true }` it also keeps session records (the five `…SessionRecord…` methods), as a
 * database with a sessions table does: a database session's row is its record (it gets an id and keeps
 * its metadata), and a JWT session's record is a row without a token. Off by default: an adapter with
 * those methods is the registry of JWT sessions, which changes what the other tests' JWT sessions are.
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  SessionMetadata,
  VerificationToken,
} from "../../src/types/adapters.js";
import type { SessionRecord } from "../../src/types/session-registry.js";

/** The adapter and the state behind it, which tests read and change directly. */
export interface MemoryAdapter {
  /** Every method but the verification tokens: users, accounts, sessions, authenticators. */
  adapter: Adapter;
  users: Map<string, AdapterUser>;
  /** Linked accounts, in the order they were linked. */
  accounts: AdapterAccount[];
  /** Database sessions by token (with their id and metadata when the adapter keeps session records). */
  sessions: Map<string, AdapterSession & Partial<SessionMetadata>>;
  /** Records of JWT sessions by id (only with `sessionRecords`; a database session's record is its row in `sessions`). */
  records: Map<string, SessionRecord>;
  /** Passkeys by credential id. */
  authenticators: Map<string, AdapterAuthenticator>;
  /** Every call of a session method (create, get, update, delete), in order, with its argument. */
  calls: Array<[string, unknown]>;
}

/** Options of {@link memoryAdapter}. */
export interface MemoryAdapterOptions {
  /** Adds the session record methods (see the module comment). Default `false`. */
  sessionRecords?: boolean;
}

/** A private copy of a record: a caller that edits what it got changes nothing stored. */
function copyRecord(record: SessionRecord): SessionRecord {
  return { ...record, createdAt: new Date(record.createdAt), lastSeenAt: new Date(record.lastSeenAt), expires: new Date(record.expires) };
}

/** A database session's row, as the adapter keeps it with session records. */
type SessionRow = AdapterSession & SessionMetadata & { id: string };

/** A database session's row as its record (never its token). */
function rowRecord(row: SessionRow): SessionRecord {
  return copyRecord({
    id: row.id,
    userId: row.userId,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    expires: row.expires,
    userAgent: row.userAgent,
    clientAddress: row.clientAddress,
    provider: row.provider,
  });
}

/** A new row of `session`: its public id and the metadata's defaults, as a database's column defaults give them. */
function sessionRow(session: AdapterSession & Partial<SessionMetadata>): SessionRow {
  const createdAt = session.createdAt ?? new Date();
  return {
    ...session,
    id: crypto.randomUUID(),
    createdAt,
    lastSeenAt: session.lastSeenAt ?? createdAt,
    userAgent: session.userAgent ?? null,
    clientAddress: session.clientAddress ?? null,
    provider: session.provider ?? null,
  };
}

/** A fresh, empty in-memory adapter. */
export function memoryAdapter(options: MemoryAdapterOptions = {}): MemoryAdapter {
  const users = new Map<string, AdapterUser>();
  const accounts: AdapterAccount[] = [];
  const sessions = new Map<string, AdapterSession & Partial<SessionMetadata>>();
  const records = new Map<string, SessionRecord>();
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
    unlinkAccount: ({ provider, providerAccountId }) => {
      const account = accountOf(provider, providerAccountId);
      if (account) accounts.splice(accounts.indexOf(account), 1);
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
      const row = options.sessionRecords ? sessionRow(session) : session;
      sessions.set(row.sessionToken, row);
      return row;
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
    // A database's default: the row's creation time.
    createAuthenticator: (authenticator) => {
      const stored = { ...authenticator, createdAt: authenticator.createdAt ?? new Date() };
      authenticators.set(authenticator.credentialID, stored);
      return stored;
    },
    listAuthenticatorsByUserId: (userId) => [...authenticators.values()].filter((a) => a.userId === userId),
    updateAuthenticatorCounter: (credentialID, counter) => {
      const authenticator = authenticators.get(credentialID);
      if (!authenticator) throw new Error("no such authenticator");
      const updated = { ...authenticator, counter };
      authenticators.set(credentialID, updated);
      return updated;
    },
    updateAuthenticator: (credentialID, update) => {
      const authenticator = authenticators.get(credentialID);
      if (!authenticator) return null;
      const updated = { ...authenticator, ...update };
      authenticators.set(credentialID, updated);
      return updated;
    },
    deleteAuthenticator: (credentialID) => {
      const authenticator = authenticators.get(credentialID);
      authenticators.delete(credentialID);
      return authenticator ?? null;
    },
  };
  if (options.sessionRecords) Object.assign(adapter, sessionRecordMethods(sessions, records));
  return { adapter, users, accounts, sessions, records, authenticators, calls };
}

/**
 * The session record methods over the two tables: `records` (JWT sessions) and the database session rows
 * in `sessions`. Every lookup is by user and id together, as `SessionRegistry` asks.
 */
function sessionRecordMethods(
  sessions: Map<string, AdapterSession & Partial<SessionMetadata>>,
  records: Map<string, SessionRecord>,
): Required<
  Pick<Adapter, "createSessionRecord" | "getSessionRecord" | "listSessionRecords" | "touchSessionRecord" | "deleteSessionRecords">
> {
  /** Every record of `userId`, live or not, with the token of its row when it is a database session. */
  const recordsOf = (userId: string): Array<{ record: SessionRecord; sessionToken?: string }> => [
    ...[...records.values()].filter((r) => r.userId === userId).map((record) => ({ record })),
    ...[...sessions.values()]
      .filter((row): row is SessionRow => row.userId === userId && row.id !== undefined)
      .map((row) => ({ record: rowRecord(row), sessionToken: row.sessionToken })),
  ];
  const live = (record: SessionRecord) => record.expires.getTime() > Date.now();
  return {
    createSessionRecord: (record) => {
      records.set(record.id, copyRecord(record));
    },
    getSessionRecord: (userId, id) => {
      const found = recordsOf(userId).find(({ record }) => record.id === id)?.record;
      return found && live(found) ? copyRecord(found) : null;
    },
    listSessionRecords: (userId) =>
      recordsOf(userId)
        .map(({ record }) => record)
        .filter(live)
        .map(copyRecord),
    touchSessionRecord: (userId, id, lastSeenAt, expires) => {
      const found = recordsOf(userId).find(({ record }) => record.id === id);
      if (!found) return;
      const touched = { lastSeenAt: new Date(lastSeenAt), expires: new Date(expires) };
      if (found.sessionToken === undefined) records.set(id, { ...found.record, ...touched });
      else sessions.set(found.sessionToken, { ...(sessions.get(found.sessionToken) as AdapterSession), ...touched });
    },
    deleteSessionRecords: (userId, ids, except) => {
      const ended = recordsOf(userId).filter(({ record }) => record.id !== except && (ids === undefined || ids.includes(record.id)));
      for (const { record, sessionToken } of ended) {
        if (sessionToken === undefined) records.delete(record.id);
        else sessions.delete(sessionToken);
      }
      return ended.filter(({ record }) => live(record)).map(({ record }) => copyRecord(record));
    },
  };
}

/**
 * `adapter` with verification tokens kept as a database keeps them: one live copy of each (identifier,
 * token), a second `createVerificationToken` of it answered `null` (how links are spent once), and
 * `useVerificationToken` finding and deleting by both.
 */
export function withVerificationTokens(adapter: Adapter): Adapter {
  const tokens: VerificationToken[] = [];
  return {
    ...adapter,
    createVerificationToken: (token) => {
      if (tokens.some((t) => t.identifier === token.identifier && t.token === token.token)) return null;
      tokens.push(token);
      return token;
    },
    useVerificationToken: ({ identifier, token }) => {
      const index = tokens.findIndex((t) => t.identifier === identifier && t.token === token);
      return index < 0 ? null : (tokens.splice(index, 1)[0] ?? null);
    },
  };
}
