/**
 * What a registered session's id looks like, and the JWT claim that carries it.
 *
 * @module session/session-id
 */

/** The claim of a JWT session that holds its record's id. */
export const SESSION_ID_CLAIM = "sid";

/** A session id as authlib makes it, or as an adapter's row ids are (UUIDs, cuids): anything else is refused unread. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** True for a string that can be a session id (it may still name no session). */
export function isSessionId(value: unknown): value is string {
  return typeof value === "string" && SESSION_ID_PATTERN.test(value);
}
