/**
 * Session control for the signed-in user (docs/sessions.md): `GET /sessions` lists their sessions as
 * JSON, the current one marked; `POST /sessions/revoke` (CSRF-checked) ends one of them (`sessionId`) or
 * all but the current one (`all=others`). `auth.api.listSessions`, `revokeSession` and
 * `revokeOtherSessions` run these same routes in process.
 *
 * A user can only ever reach their own sessions: the registry deletes by user and id together, and an id
 * that is not one of the caller's live sessions is `SessionNotFound` whoever it belongs to.
 */

import { InvalidSessionId, SessionNotFound, SessionRegistryMissing, SessionRequired } from "../../errors.js";
import { assertCsrf } from "../../http/csrf.js";
import { noStoreHeaders } from "../../http/response.js";
import { impersonatorOfRecord } from "../../session/impersonation.js";
import { isMark, requireRegistry, revokeSessions } from "../../session/registry.js";
import { isSessionId } from "../../session/registry-of.js";
import { notifyOwner } from "../../sign-in/notify-owner.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { InputOf } from "../../types/operation.js";
import type { ListedSession, SessionRecord } from "../../types/session-registry.js";
import type { revokeInput } from "./input.js";

const json = { "Content-Type": "application/json", ...noStoreHeaders };

/** The caller's session: its user and record id. `SessionRequired` when nobody is signed in. */
async function callerSession(options: InternalOptions, request: RequestInternal): Promise<{ userId: string; sessionId: string }> {
  const current = await options.sessionStrategy.currentSession(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  if (!current.sessionId) {
    throw new SessionRegistryMissing("The adapter returned the session without its id: sessions cannot be told apart.");
  }
  return { userId: current.userId, sessionId: current.sessionId };
}

/** A record as the listing shows it. */
export function listed(record: SessionRecord, currentId: string): ListedSession {
  return {
    id: record.id,
    current: record.id === currentId,
    createdAt: record.createdAt.toISOString(),
    lastSeenAt: record.lastSeenAt.toISOString(),
    expires: record.expires.toISOString(),
    userAgent: record.userAgent,
    clientAddress: record.clientAddress,
    provider: record.provider,
  };
}

/** GET /sessions: `{ sessions }`, most recently seen first, the current one marked. */
export async function listSessionsAction(
  options: InternalOptions,
  request: RequestInternal,
): Promise<ResponseInternal<{ sessions: ListedSession[] }>> {
  const registry = requireRegistry(options);
  const { userId, sessionId } = await callerSession(options, request);
  const records = await registry.listByUser(userId);
  const sessions = records
    .filter((record) => !isMark(record))
    .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
    .map((record) => listed(record, sessionId));
  return { body: { sessions: await withImpersonators(options, sessions) }, headers: json };
}

/**
 * `sessions` with each impersonated one marked with the admin who acted in it (their id and name), unless
 * the app hides it (`admin.impersonation.showToUser: false`); its `provider` is never the record's marker.
 */
async function withImpersonators(options: InternalOptions, sessions: ListedSession[]): Promise<ListedSession[]> {
  if (!sessions.some((session) => impersonatorOfRecord(session.provider) !== undefined)) return sessions;
  const impersonation = options.config.admin?.impersonation;
  const shown = impersonation !== false && impersonation?.showToUser !== false;
  const names = new Map<string, Promise<string | null>>();
  const nameOf = (id: string) => {
    if (!names.has(id))
      names.set(
        id,
        Promise.resolve(options.adapter?.getUser?.(id)).then(
          (user) => user?.name ?? null,
          () => null,
        ),
      );
    return names.get(id) as Promise<string | null>;
  };
  return Promise.all(
    sessions.map(async (session) => {
      const admin = impersonatorOfRecord(session.provider);
      if (admin === undefined) return session;
      const unmarked = { ...session, provider: null };
      return shown ? { ...unmarked, impersonatedBy: { id: admin, name: await nameOf(admin) } } : unmarked;
    }),
  );
}

/** POST /sessions/revoke: `{ revoked }`, the number of sessions ended; the session cookie is cleared when the current one was. */
export async function revokeAction(
  options: InternalOptions,
  request: RequestInternal,
  { sessionId, all }: InputOf<typeof revokeInput>,
): Promise<ResponseInternal<{ revoked: number }>> {
  assertCsrf("session revoke", options.csrfTokenVerified);
  requireRegistry(options);
  const { userId, sessionId: by } = await callerSession(options, request);
  if (all === "others") {
    const ended = await revokeSessions(options, { userId, except: by, reason: "others", by });
    if (ended.length > 0) await notifyOwner(options, request, { id: userId }, "otherSessionsEnded");
    return { body: { revoked: ended.length }, headers: json };
  }
  if (!isSessionId(sessionId)) throw new InvalidSessionId("Give the id of a session to revoke (`sessionId`), or `all=others`.");
  const ended = await revokeSessions(options, { userId, ids: [sessionId], reason: "revoked", by });
  if (ended.length === 0) throw new SessionNotFound("No session of yours has this id: it ended already, or never existed.");
  // Ending the current session is signing out of this device: its cookie goes too.
  const cookies = sessionId === by ? await options.sessionStrategy.end(options, request) : [];
  return { body: { revoked: ended.length }, headers: json, cookies };
}
