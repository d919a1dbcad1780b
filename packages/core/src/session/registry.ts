/**
 * The session registry of an instance: where each session's record lives, so that a user can list their
 * signed-in devices and end them, and server code can end a user's sessions (docs/sessions.md).
 *
 * - Database sessions: the session row is the record (an adapter with the session record methods keeps
 *   the metadata beside the token). Ending one deletes its row, so it is refused from the next check.
 * - JWT sessions: the token carries the record's id (`sid`) and the record lives in the adapter (when it
 *   has the session record methods) or in `session.store`. A token whose record is gone is refused:
 *   `revocation: "strict"` reads the registry on every check; `"eventual"` (default) trusts this
 *   instance's last read of a session for `revalidateAfter` seconds, and forgets a session at once when
 *   this instance ends it. Without a registry, JWT sessions work as before and the session APIs throw
 *   `SessionRegistryMissing`.
 * - A JWT without `sid` was issued before the registry was configured (by authlib, or by Auth.js under
 *   `acceptAuthjsSessions`). It is adopted at its next read: registered as a new session and re-issued
 *   with its `sid`, so turning the registry on signs nobody out. Unless the user has since ended their
 *   sessions everywhere (`revokeOtherSessions`, `revokeUserSessions`): that leaves a "revoked before" mark
 *   in the registry (a record of the user with a reserved id, living `maxAge`, never listed), and while it
 *   lives no token without `sid` of that user is adopted, so a copy of an old cookie cannot come back.
 *
 * @module session/registry
 */

import { sha256Hex } from "../crypto/digest.js";
import { SessionRegistryMissing } from "../errors.js";
import { addressPrefix } from "../rate-limit/client-address.js";
import type { SessionMetadata } from "../types/adapters.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import type { JWT } from "../types/jwt.js";
import type { SessionRecord, SessionRegistry, SessionRevocationReason } from "../types/session-registry.js";
import { describeUserAgent } from "./device.js";
import { isSessionId, SESSION_ID_CLAIM } from "./session-id.js";

/** How many sessions an instance remembers its last registry read of (eventual revocation). */
export const SESSION_VERDICTS_MAX_ENTRIES = 10_000;

/** A new session id: 128 random bits, base64url. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The provider field of the "revoked before" mark (see the module comment); never a provider's id. */
const REVOKED_BEFORE = "authlib:revoked-before";

/** The reserved id of `userId`'s "revoked before" mark: one per user, longer than any id authlib makes. */
async function markIdOf(userId: string): Promise<string> {
  return `revoked-before-${(await sha256Hex(`authlib.revoked-before:${userId}`)).slice(0, 32)}`;
}

/** True for a record that is a "revoked before" mark, not a session. */
export function isMark(record: SessionRecord): boolean {
  return record.provider === REVOKED_BEFORE;
}

/** The registry, or `SessionRegistryMissing` (for the session APIs). */
export function requireRegistry(options: Pick<InternalOptions, "sessionRegistry" | "session">): SessionRegistry {
  if (options.sessionRegistry) return options.sessionRegistry;
  throw new SessionRegistryMissing(
    options.session.strategy === "jwt"
      ? "JWT sessions cannot be listed or revoked without a registry: set session.store (memorySessionStore(), redisSessionStore({ client }), hostedDbSessionStore(client)) or use an adapter with the session record methods."
      : "The adapter has no session record methods (createSessionRecord, getSessionRecord, listSessionRecords, touchSessionRecord, deleteSessionRecords): database sessions cannot be listed or revoked with it.",
  );
}

/** What a session beginning with this request records about its device (`session/device.ts`). */
export function sessionMetadata(options: InternalOptions, request: RequestInternal, provider: string | null): SessionMetadata {
  const now = new Date();
  const rateLimit = options.config.rateLimit;
  // The app's rule when it has one (it may read a proxy's header); the connection otherwise.
  const custom = rateLimit ? rateLimit.clientAddress : undefined;
  const address = custom ? custom(request.request, request.connectionAddress) : request.connectionAddress;
  return {
    createdAt: now,
    lastSeenAt: now,
    userAgent: describeUserAgent(request.headers.get("user-agent")),
    clientAddress: typeof address === "string" ? addressPrefix(address) : null,
    provider,
  };
}

/**
 * Registers a new JWT session of `userId` and returns its id. Past `session.maxPerUser`, the user's least
 * recently seen sessions end (`sessionRevoked`, reason `"limit"`).
 */
export async function registerSession(
  options: InternalOptions,
  registry: SessionRegistry,
  record: Omit<SessionRecord, "id">,
  limited = true,
): Promise<string> {
  const id = newSessionId();
  await registry.create({ id, ...record });
  remember(options, id, { id, ...record });
  // An admin's impersonation (`limited: false`) never ends one of the user's own sessions.
  if (limited) await enforceSessionLimit(options, registry, record.userId, id);
  return id;
}

/** Ends the user's least recently seen sessions past `session.maxPerUser`, never `keep` (the one just begun). */
export async function enforceSessionLimit(
  options: InternalOptions,
  registry: SessionRegistry,
  userId: string,
  keep: string,
): Promise<void> {
  const sessions = (await registry.listByUser(userId)).filter((s) => !isMark(s));
  const excess = sessions.length - options.session.maxPerUser;
  if (excess <= 0) return;
  const oldest = sessions
    .filter((s) => s.id !== keep)
    .sort((a, b) => a.lastSeenAt.getTime() - b.lastSeenAt.getTime())
    .slice(0, excess)
    .map((s) => s.id);
  await revokeSessions(options, { userId, ids: oldest, except: keep, reason: "limit" });
}

interface Verdict {
  record: SessionRecord | null;
  checkedAt: number;
}

/** This instance's last registry reads (eventual revocation), made on first use. */
function verdictsOf(options: Pick<InternalOptions, "instanceState">): Map<string, Verdict> {
  options.instanceState.sessionVerdicts ??= new Map();
  return options.instanceState.sessionVerdicts;
}

/** Remembers the registry's answer for `id` (oldest out past the bound). */
function remember(options: Pick<InternalOptions, "instanceState">, id: string, record: SessionRecord | null): void {
  const verdicts = verdictsOf(options);
  verdicts.delete(id);
  if (verdicts.size >= SESSION_VERDICTS_MAX_ENTRIES) verdicts.delete(verdicts.keys().next().value as string);
  verdicts.set(id, { record, checkedAt: Date.now() });
}

/**
 * Registers the session of a token without `sid` (see the module comment) and answers its record; `null`
 * when the user's sessions were ended everywhere since (the mark lives) or the token names no user.
 */
export async function adoptSession(
  options: InternalOptions,
  registry: SessionRegistry,
  payload: JWT,
  request: RequestInternal,
): Promise<SessionRecord | null> {
  const userId = payload.sub;
  if (typeof userId !== "string" || userId === "") return null;
  if (await registry.get(userId, await markIdOf(userId))) return null;
  const expires = new Date(typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + options.session.maxAge * 1000);
  const record = { userId, expires, ...sessionMetadata(options, request, null) };
  const id = await registerSession(options, registry, record);
  return { id, ...record };
}

/**
 * The live record of the JWT session `payload`, or `null` when it has none (no `sid`, revoked, expired,
 * or another user's). Eventual revocation answers from this instance's last read while it is younger
 * than `revalidateAfter`, without waiting. Rejects when the registry cannot be read.
 */
export function registeredSession(
  options: InternalOptions,
  registry: SessionRegistry,
  payload: JWT,
): SessionRecord | null | Promise<SessionRecord | null> {
  const id = payload[SESSION_ID_CLAIM];
  const userId = payload.sub;
  if (!isSessionId(id) || typeof userId !== "string") return null;
  if (options.session.revocation === "eventual") {
    const known = options.instanceState.sessionVerdicts?.get(id);
    const now = Date.now();
    if (known && now - known.checkedAt < options.session.revalidateAfter * 1000) return ownedBy(known.record, userId, now);
  }
  return registry.get(userId, id).then((record) => {
    remember(options, id, record);
    return ownedBy(record, userId, Date.now());
  });
}

function ownedBy(record: SessionRecord | null, userId: string, now: number): SessionRecord | null {
  return record && record.userId === userId && record.expires.getTime() > now ? record : null;
}

/** Moves a session's `lastSeenAt` to now and its end to `expires` (when a session is extended: `updateAge`). Logged, never thrown. */
export async function touchSession(
  options: InternalOptions,
  registry: SessionRegistry,
  session: { userId: string; id: string },
  expires: Date,
): Promise<void> {
  try {
    await registry.touch(session.userId, session.id, new Date(), expires);
  } catch (error) {
    options.logger.error(error as Error);
  }
}

/** What {@link revokeSessions} ends. */
export interface Revocation {
  userId: string;
  /** The sessions to end; all of the user's when absent. */
  ids?: readonly string[];
  /** A session never ended (the caller's own, for "everywhere else"). */
  except?: string;
  reason: SessionRevocationReason;
  /** The session that asked. */
  by?: string;
}

/**
 * Ends sessions of one user in the registry (a database session's row goes with its record), forgets
 * them on this instance at once, and fires `sessionRevoked` for each. Resolves the ended records.
 */
export async function revokeSessions(
  options: Pick<InternalOptions, "sessionRegistry" | "session" | "events" | "instanceState" | "hooks" | "adapter" | "config" | "audit">,
  revocation: Revocation,
): Promise<SessionRecord[]> {
  const { userId, ids, except, reason, by } = revocation;
  const registry = requireRegistry(options);
  const ended = (await registry.delete(userId, ids, except)).filter((record) => !isMark(record));
  // Everywhere (but `except`): no token of this user from before the registry may be adopted after this.
  if (ids === undefined && options.session.strategy === "jwt") {
    const now = new Date();
    const expires = new Date(now.getTime() + options.session.maxAge * 1000);
    const mark = { userAgent: null, clientAddress: null, provider: REVOKED_BEFORE };
    await registry.create({ id: await markIdOf(userId), userId, createdAt: now, lastSeenAt: now, expires, ...mark });
  }
  if (ids === undefined) await options.hooks?.everySessionEnded?.(options, userId);
  for (const session of ended) {
    remember(options, session.id, null);
    await options.events.sessionRevoked({ userId, session, reason, ...(by ? { by } : {}) });
  }
  return ended;
}

/** Forgets a session on this instance after its own sign-out (its record was deleted by the caller). */
export function forgetSession(options: InternalOptions, id: string): void {
  remember(options, id, null);
}
