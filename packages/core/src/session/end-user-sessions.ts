/**
 * Ending every session of a user, whatever keeps them: JWT sessions through their registry (their
 * records may live outside the adapter), database sessions through the adapter. Used when a user loses
 * an address to the person who proved it, and when a password is reset or changed.
 *
 * @module session/end-user-sessions
 */

import { recordAuditEvent } from "../audit/index.js";
import type { Adapter } from "../types/adapters.js";
import type { InternalOptions } from "../types/internal.js";
import { loadRegistry } from "./registry-of.js";

/**
 * Ends every session of `userId`. Through the registry when there is one (JWT sessions, or database
 * sessions whose rows are their records): each ended session fires `sessionRevoked` (reason `"server"`).
 * Database sessions without records are deleted by the adapter and audited as one revocation. When
 * nothing can end them (JWT sessions without a registry, an adapter without `deleteSessionsByUserId`),
 * logs the `sessions-not-ended` warning: they go on until they expire or are signed out.
 */
export async function endUserSessions(
  options: InternalOptions,
  store: Pick<Adapter, "deleteSessionsByUserId">,
  userId: string,
): Promise<void> {
  const registered = options.sessionRegistry !== undefined;
  if (registered) await (await loadRegistry()).revokeSessions(options, { userId, reason: "server" });
  else await options.hooks?.everySessionEnded?.(options, userId);
  if (store.deleteSessionsByUserId) {
    const ended = await store.deleteSessionsByUserId(userId);
    // Without records there is no session to name in a `sessionRevoked` event; the trail still says it.
    if (ended > 0 && !registered) recordAuditEvent(options, undefined, { type: "sessionRevoked", userId, detail: "server" });
  } else if (!registered) {
    options.logger.warn("sessions-not-ended");
  }
}
