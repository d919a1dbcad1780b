/**
 * The demo's audit page reads authlib's stored audit trail (`audit: { store: hostedDbAuditStore(client) }`
 * in auth-config.ts), newest first, and names each user as the page's reader knows them.
 */
import type { AuditEvent } from "@authlib/core";
import { type HostedDbAdapter, type HostedDbClient, hostedDbAuditStore } from "@authlib/hosted-db-adapter";

/** One listed event. */
export interface AuditEntry {
  /** Position in the list, newest first. */
  id: number;
  /** ISO 8601 time of the event. */
  at: string;
  /** The audit event: signIn, signInFailed, signOut, sessionRevoked, linkAccount, rateLimited, … */
  event: string;
  /** Who it was about, when known. */
  subject: string;
  /** Extra facts: the provider, the error type or reason, the client's network and browser. */
  detail: string;
}

const MAX_ENTRIES = 200;

/** How the page names a user: the address, else (a passkey user has none) the display name, else the id. */
export function who(user: { id?: string; email?: string | null; name?: string | null }): string {
  return user.email ?? (user.name ? `${user.name} (no email)` : `user ${user.id ?? "?"}`);
}

/** The stored trail, newest first, with each user named (a page for the developer, not an export of the trail). */
export async function listEvents(client: HostedDbClient, adapter: ReturnType<typeof HostedDbAdapter>): Promise<AuditEntry[]> {
  const events = await hostedDbAuditStore(client).list({ limit: MAX_ENTRIES });
  const names = new Map<string, string>();
  for (const userId of new Set(events.map((event) => event.userId).filter((id): id is string => id !== null))) {
    const user = await adapter.getUser?.(userId);
    names.set(userId, user ? who(user) : `user ${userId}`);
  }
  return events.map((event, index) => ({
    id: events.length - index,
    at: event.time.toISOString(),
    event: event.type,
    subject: event.userId ? (names.get(event.userId) ?? event.userId) : "(no user: an anonymous attempt)",
    detail: detailOf(event),
  }));
}

function detailOf(event: AuditEvent): string {
  return [
    event.provider ? `provider ${event.provider}` : "",
    event.outcome === "failure" ? `failed: ${event.detail ?? "?"}` : (event.detail ?? ""),
    event.clientAddressPrefix ?? "",
    event.userAgentLabel ?? "",
  ]
    .filter(Boolean)
    .join(", ");
}
