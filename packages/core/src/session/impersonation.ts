/**
 * What the session strategies keep of an impersonated session (`impersonateUser`, docs/admin.md
 * "Impersonation"): its actor is part of its assurance (`act`, session/assurance.ts), sealed with it; its
 * record names the admin (the record's `provider` field, so every registry store keeps it as it is); a
 * database session's token is marked, so the session is refused without its sealed actor (a browser that
 * drops the assurance cookie loses the session, never only the mark); and `getSession` shows who acts.
 *
 * @module session/impersonation
 */
import type { SessionActor, SessionImpersonator } from "../types/base.js";
import type { InternalOptions } from "../types/internal.js";

/** The start of a database session token made for an impersonated session. */
export const IMPERSONATED_TOKEN_PREFIX = "authlib-act.";

/** The start of the `provider` field of an impersonated session's record, before the admin's id. */
const RECORD_PROVIDER_PREFIX = "authlib:impersonated-by:";

/** The `provider` field of the record of a session `adminId` acts in. */
export function impersonatedRecordProvider(adminId: string): string {
  return `${RECORD_PROVIDER_PREFIX}${adminId}`;
}

/** The admin a record's `provider` field names as acting in its session, or `undefined` for any other session. */
export function impersonatorOfRecord(provider: string | null): string | undefined {
  return provider?.startsWith(RECORD_PROVIDER_PREFIX) ? provider.slice(RECORD_PROVIDER_PREFIX.length) || undefined : undefined;
}

/** The admin `act` names, with their name and email when the store knows them (only the id when it cannot answer). */
export async function impersonatorOf(options: InternalOptions, act: SessionActor): Promise<SessionImpersonator> {
  try {
    const admin = await options.adapter?.getUser?.(act.sub);
    return admin ? { id: act.sub, name: admin.name ?? null, email: admin.email ?? null } : { id: act.sub };
  } catch {
    return { id: act.sub };
  }
}
