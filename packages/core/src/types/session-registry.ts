/**
 * The shapes of session control: the record of a signed-in device, the registry that keeps the records
 * (an adapter, or `session.store`), and what the listing answers. Types only, like the rest of the floor.
 *
 * @module session-registry-types
 */

/** A signed-in device: one session, as the registry keeps it. Holds no secret (never the session token). */
export interface SessionRecord {
  /** The session's public id: random, not a credential (a JWT's `sid`, a database session row's id). */
  id: string;
  /** The user the session belongs to. */
  userId: string;
  /** When the session began (the sign-in). */
  createdAt: Date;
  /** When the session was last seen, at `session.updateAge` granularity (never a write per request). */
  lastSeenAt: Date;
  /** When the session ends unless it is used again. */
  expires: Date;
  /** A short label of the browser, e.g. `"Chrome on macOS"` (the full User-Agent is not kept); `null` when unknown. */
  userAgent: string | null;
  /** The network the sign-in came from: an IPv4 /24 (`"203.0.113.0/24"`) or an IPv6 /48; `null` when unknown. */
  clientAddress: string | null;
  /** The provider the session began with (`"github"`, `"credentials"`, …); `null` when unknown. */
  provider: string | null;
}

/**
 * Where session records live, shared by every instance that must see the same sessions:
 * `memorySessionStore()` (one process), `redisSessionStore({ client })`, `hostedDbSessionStore(client)`,
 * or an adapter with the session record methods. Every method is one round trip where the store can.
 */
export interface SessionRegistry {
  /** Stores a new record (its `id` is new: random, 128 bits). */
  create(record: SessionRecord): Promise<void>;
  /**
   * The record of `userId` with this id, or `null` when there is none (never made, revoked, expired, or
   * another user's). The user is part of the key, so a store can keep a user's records together (a
   * Redis hash slot) and never answers one user's record for another.
   */
  get(userId: string, id: string): Promise<SessionRecord | null>;
  /** The user's records that have not expired, in any order. */
  listByUser(userId: string): Promise<SessionRecord[]>;
  /** Sets the `lastSeenAt` and `expires` of the user's record `id`; nothing when it is gone. */
  touch(userId: string, id: string, lastSeenAt: Date, expires: Date): Promise<void>;
  /**
   * Deletes the user's records: those in `ids` (all of the user's when `ids` is absent), but never
   * `except`, and never a record of another user. Resolves the records it deleted.
   */
  delete(userId: string, ids?: readonly string[], except?: string): Promise<SessionRecord[]>;
}

/** A session as `listSessions` and `GET <basePath>/sessions` answer it (dates as ISO strings). */
export interface ListedSession {
  /** The id to revoke it by. */
  id: string;
  /** True for the session of the request that asked. */
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expires: string;
  userAgent: string | null;
  clientAddress: string | null;
  provider: string | null;
  /**
   * Set when an admin acted as the user in this session (`impersonateUser`): who (their id and name), and
   * when (`createdAt`). Absent for the user's own sessions, and when the app hides it
   * (`admin.impersonation.showToUser: false`).
   */
  impersonatedBy?: { id: string; name: string | null };
}

/** Why a session ended before its time: in the `sessionRevoked` event. */
export type SessionRevocationReason =
  /** The user ended it by its id (`revokeSession`, "sign out of this device"). */
  | "revoked"
  /** The user signed out everywhere else (`revokeOtherSessions`). */
  | "others"
  /** Server code ended the user's sessions (`revokeUserSessions`: a password change, an admin). */
  | "server"
  /** The user had more live sessions than `session.maxPerUser`: the least recently seen ended. */
  | "limit";

/** The `sessionRevoked` event's message. */
export interface SessionRevokedMessage {
  /** The user whose session ended. */
  userId: string;
  /** The session that ended. */
  session: SessionRecord;
  /** Why it ended. */
  reason: SessionRevocationReason;
  /** The session that asked (its id), when a signed-in user asked; absent for server code. */
  by?: string;
}
