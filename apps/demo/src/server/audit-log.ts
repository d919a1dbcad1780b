/**
 * The demo's audit log: authlib's events, kept in memory (newest first) for the /audit page.
 */

/** One logged event. */
export interface AuditEntry {
  /** Position in the log, counting from 1 since the server started. */
  id: number;
  /** ISO 8601 time of the event. */
  at: string;
  /** The authlib event: signIn, signOut, session, … */
  event: string;
  /** Who it was about, when known. */
  subject: string;
  /** Extra facts: the provider, the trigger. */
  detail: string;
}

const MAX_ENTRIES = 200;
const entries: AuditEntry[] = [];
let counter = 0;

/** Adds an event to the log. The oldest entries drop off past 200. */
export function recordEvent(event: string, subject: string | null | undefined, detail = ""): void {
  entries.unshift({ id: ++counter, at: new Date().toISOString(), event, subject: subject ?? "(unknown)", detail });
  entries.length = Math.min(entries.length, MAX_ENTRIES);
}

/** The log, newest first. */
export function listEvents(): AuditEntry[] {
  return entries.slice();
}
