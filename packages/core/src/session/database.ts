/**
 * The database strategy: the cookie holds only a random session token; the session lives in the adapter.
 * A session check costs one adapter call (`getSessionAndUser`) unless an update is due (`updateAge`).
 */
import type { AdapterSession } from "../adapters.js";
import { SessionTokenError } from "../errors.js";
import { type Cookie, expiredCookie } from "../http/cookies.js";
import type { InternalOptions, RequestInternal } from "../internal-types.js";
import type { Session } from "../types.js";
import { refreshAccountsIfDue } from "./refresh.js";
import type { SessionStrategyHandler } from "./types.js";

function sessionCookie(options: InternalOptions, sessionToken: string, expires: Date): Cookie {
  const { name, options: cookieOptions } = options.cookies.sessionToken;
  return { name, value: sessionToken, options: { ...cookieOptions, expires } };
}

function clearSessionCookie(options: InternalOptions): Cookie[] {
  return [expiredCookie(options.cookies.sessionToken.name, options.cookies.sessionToken.options)];
}

/** The adapter, which the config assertions guarantee for this strategy. */
function adapterOf(options: InternalOptions) {
  const { adapter } = options;
  if (!adapter?.getSessionAndUser || !adapter.createSession || !adapter.deleteSession || !adapter.updateSession) {
    throw new SessionTokenError("Database sessions need an adapter with session methods.");
  }
  return adapter as Required<Pick<typeof adapter, "getSessionAndUser" | "createSession" | "deleteSession" | "updateSession">> &
    typeof adapter;
}

/** The live session and user of this request's cookie, deleting it when expired. */
async function lookup(options: InternalOptions, request: RequestInternal) {
  const sessionToken = request.cookies[options.cookies.sessionToken.name];
  if (!sessionToken) return { sessionToken, found: null };
  const adapter = adapterOf(options);
  const found = await adapter.getSessionAndUser(sessionToken);
  if (found && found.session.expires.valueOf() < Date.now()) {
    await adapter.deleteSession(sessionToken);
    return { sessionToken, found: null };
  }
  return { sessionToken, found };
}

/** The database session strategy. */
export const databaseSessionStrategy: SessionStrategyHandler = {
  async read(options, request, update) {
    let result: Awaited<ReturnType<typeof lookup>>;
    try {
      result = await lookup(options, request);
    } catch (error) {
      options.logger.error(new SessionTokenError("Could not read the database session.", { cause: error as Error }));
      return { session: null, cookies: [] };
    }
    const { sessionToken, found } = result;
    if (!sessionToken) return { session: null, cookies: [] };
    if (!found) return { session: null, cookies: clearSessionCookie(options) };

    const { maxAge, updateAge } = options.session;
    const cookies: Cookie[] = [];
    let stored: AdapterSession = found.session;
    const due = stored.expires.valueOf() - maxAge * 1000 + updateAge * 1000 <= Date.now();
    if (due) {
      const expires = new Date(Date.now() + maxAge * 1000);
      try {
        stored = (await adapterOf(options).updateSession({ sessionToken, expires })) || { ...stored, expires };
        cookies.push(sessionCookie(options, sessionToken, expires));
      } catch (error) {
        options.logger.error(new SessionTokenError("Could not extend the database session.", { cause: error as Error }));
      }
    }
    const refreshed = await refreshAccountsIfDue(options, found.user.id);
    // The callback gets `expires` as the Date that `AdapterSession` types; the client gets an ISO string.
    const returned = (await options.callbacks.session({
      session: { ...stored, user: found.user },
      user: found.user,
      ...(update ? { trigger: "update" as const, newSession: update.data } : {}),
    })) as Omit<Session, "expires"> & { error?: string; expires: unknown };
    const session: Session & { error?: string } = {
      ...returned,
      expires: returned.expires instanceof Date ? returned.expires.toISOString() : (returned.expires as string),
    };
    if (!refreshed) session.error = "RefreshTokenError";
    await options.events.session({ session });
    return { session, cookies };
  },

  async start(options, _request, { user }) {
    if (!user.id) throw new SessionTokenError("Cannot start a database session for a user without an id.");
    const expires = new Date(Date.now() + options.session.maxAge * 1000);
    const sessionToken = options.session.generateSessionToken();
    await adapterOf(options).createSession({ sessionToken, userId: user.id, expires });
    return [sessionCookie(options, sessionToken, expires)];
  },

  async end(options, request) {
    const sessionToken = request.cookies[options.cookies.sessionToken.name];
    if (!sessionToken) return [];
    const session = await adapterOf(options).deleteSession(sessionToken);
    await options.events.signOut({ session });
    return clearSessionCookie(options);
  },

  async currentUser(options, request) {
    const { found } = await lookup(options, request);
    return found?.user ?? null;
  },
};
