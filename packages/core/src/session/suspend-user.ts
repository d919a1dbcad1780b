/**
 * Suspending a user (an operator's ban, a deprovisioning from their organization's directory): every way
 * they are let in ends at once, whatever keeps it. Their sessions end through `endUserSessions` (which
 * ends the grants with them, `everySessionEnded`), then every feature that keeps another credential for
 * them (API keys) hears `userSuspended`. Refusing their next sign-in is the caller's.
 *
 * @module session/suspend-user
 */
import type { Adapter } from "../types/adapters.js";
import type { InternalOptions, SuspensionReason } from "../types/internal.js";
import { endUserSessions } from "./end-user-sessions.js";

/** Ends every session and credential of `userId` (see the module comment). */
export async function suspendUser(
  options: InternalOptions,
  store: Pick<Adapter, "deleteSessionsByUserId">,
  userId: string,
  reason: SuspensionReason,
): Promise<void> {
  await endUserSessions(options, store, userId);
  await options.hooks?.userSuspended?.(options, userId, reason);
}
