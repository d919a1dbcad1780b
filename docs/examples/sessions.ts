/**
 * docs/sessions.md: JWT sessions with a registry, so a user can see their signed-in devices and end them,
 * and server code can end a user's sessions (after a password change). One process: `memorySessionStore()`;
 * more than one share a store (the page lists them).
 */
import { type AuthConfig, createAuth, memorySessionStore } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";

declare function checkPassword(email: unknown, password: unknown): Promise<{ id: string; email: string } | null>;
declare function audit(event: string, userId: string, detail: string): Promise<void>;

const config: AuthConfig = {
  providers: [
    Credentials({ credentials: { email: {}, password: {} }, authorize: ({ email, password }) => checkPassword(email, password) }),
  ],
  session: {
    store: memorySessionStore(), // one process; see the page for Redis and PostgreSQL
    revocation: "eventual", // the default: other instances stop a revoked session within revalidateAfter
    revalidateAfter: 60, // seconds (the default)
    maxPerUser: 50, // the default: a 51st sign-in ends the least recently seen session
  },
  events: {
    sessionRevoked: ({ userId, session, reason, by }) =>
      audit("sessionRevoked", userId, `${session.userAgent ?? "unknown device"}: ${reason}${by ? ` (by session ${by})` : ""}`),
  },
};

export const auth = createAuth(config);

/** The "Your devices" page: the signed-in user's sessions, the current one marked. */
export async function devices(request: Request) {
  const sessions = await auth.api.listSessions(request); // SessionRequired when nobody is signed in
  return sessions.map((s) => ({
    id: s.id,
    label: `${s.userAgent ?? "Unknown device"}${s.clientAddress ? ` from ${s.clientAddress}` : ""}${s.current ? " (this device)" : ""}`,
    lastSeen: s.lastSeenAt,
  }));
}

/** "Sign out of this device" on one row of that page; set the returned cookies on the response. */
export async function endDevice(request: Request, sessionId: string) {
  const { revoked, cookies } = await auth.api.revokeSession(request, { sessionId }); // SessionNotFound: not one of theirs
  return { revoked, cookies };
}

/** "Sign out everywhere else". */
export async function endOtherDevices(request: Request) {
  return (await auth.api.revokeOtherSessions(request)).revoked;
}

/** After a password change: every other session of the user ends; the one that changed it stays. */
export async function afterPasswordChange(userId: string, currentSessionId: string) {
  return (await auth.api.revokeUserSessions({ userId, except: currentSessionId })).revoked;
}
