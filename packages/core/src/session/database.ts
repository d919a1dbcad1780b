/**
 * The database strategy: the cookie holds only a random session token; the session lives in the adapter.
 * A session check costs one adapter call (`getSessionAndUser`) unless an update is due (`updateAge`).
 */

import { requireCapability, type SessionStore } from "../adapter/capabilities.js";
import { SessionTokenError, UnknownCredentialsUser } from "../errors.js";
import { cookieNamesOf } from "../http/cookie-chunks.js";
import { type Cookie, clearChunkedCookie, expiredCookie, incomingSessionCookieName, legacySessionCookieNames } from "../http/cookies.js";
import { inSpan } from "../telemetry/index.js";
import type { AdapterSession } from "../types/adapters.js";
import type { Session } from "../types/config.js";
import type { InternalOptions, RequestInternal, SessionStrategyHandler } from "../types/internal.js";
import { withActiveOrganization } from "./active-organization.js";
import { impersonationOver, sessionEnd } from "./assurance.js";
import type { SealedSessionClaims } from "./assurance-cookie.js";
import { IMPERSONATED_TOKEN_PREFIX, impersonatedRecordProvider, impersonatorOf } from "./impersonation.js";
import { refreshAccountsIfDue } from "./refresh.js";
import { loadRegistry } from "./registry-of.js";

function sessionCookie(options: InternalOptions, sessionToken: string, expires: Date): Cookie {
  const { name, options: cookieOptions } = options.cookies.sessionToken;
  return { name, value: sessionToken, options: { ...cookieOptions, expires } };
}

function clearSessionCookie(options: InternalOptions): Cookie[] {
  return [expiredCookie(options.cookies.sessionToken.name, options.cookies.sessionToken.options)];
}

/**
 * The session token of the request and the cookie name it came from. A database session token is never
 * chunked, so any `name.N` cookie was written by someone else: then there is no token (`unreadable`), and
 * the caller clears them all. Without a cookie of the configured name, and only with
 * `acceptAuthjsSessions` and no `__Host-` cookie of authlib's in the request, a legacy name is read (the
 * `__Secure-` name sessions had on https before `__Host-`, then Auth.js's; http/cookies.ts), and the
 * session is moved to the configured name by `read`.
 */
function tokenCookie(options: InternalOptions, request: RequestInternal): { token?: string; name: string; unreadable: boolean } {
  const name = incomingSessionCookieName(options.cookies, request.cookies, options.config.acceptAuthjsSessions === true);
  const names = cookieNamesOf(request.cookies, name);
  if (names.some((n) => n !== name)) return { name, unreadable: true };
  return { token: request.cookies[name] || undefined, name, unreadable: false };
}

/** Cookies deleting the session cookie `name` and every chunk-named cookie next to it. */
function clearAllSessionCookies(options: InternalOptions, request: RequestInternal, name: string): Cookie[] {
  return clearChunkedCookie({ ...options.cookies.sessionToken, name }, request.cookies);
}

/** The adapter's session methods, which the start-up check guarantees for this strategy. */
function adapterOf(options: InternalOptions): SessionStore {
  const { sessions } = options.capabilities;
  if (!sessions) throw new SessionTokenError("Database sessions need an adapter with session methods.");
  return sessions;
}

/** The live session and user of this request's cookie, deleting it when expired. */
async function lookup(options: InternalOptions, request: RequestInternal) {
  const sessionToken = tokenCookie(options, request).token;
  if (!sessionToken) return { sessionToken, found: null };
  const adapter = adapterOf(options);
  const found = await adapter.getSessionAndUser(sessionToken);
  if (found && found.session.expires.valueOf() < Date.now()) {
    await adapter.deleteSession(sessionToken);
    return { sessionToken, found: null };
  }
  // An impersonated session lives only with its sealed actor: a request without it has no session.
  if (found && sessionToken.startsWith(IMPERSONATED_TOKEN_PREFIX)) {
    const { assurance } = await (await assuranceCookie()).openAssurance(options, request, sessionToken);
    if (!assurance?.act || impersonationOver(assurance)) return { sessionToken, found: null };
  }
  return { sessionToken, found };
}

/** A live session and its user, as the adapter found them. */
type Found = NonNullable<Awaited<ReturnType<typeof lookup>>["found"]>;

/** The assurance cookie's code (`session/assurance-cookie.ts`): loaded when a session has such a cookie, or starts with one. */
const assuranceCookie = () => import("./assurance-cookie.js");

/**
 * True when the adapter keeps session records: then a session's row holds its active organization
 * (`AdapterSession.activeOrganizationId`). Another adapter (an Auth.js one) may drop a field it does not
 * know, so there the session's sealed cookie holds it, bound to the session's token.
 */
function rowKeepsOrganization(options: InternalOptions): boolean {
  return options.capabilities.sessionRecords !== undefined;
}

/** The active organization of a found session: its row's, or its sealed cookie's (`sealed`). */
function activeOrganizationOf(options: InternalOptions, found: Found, sealed: SealedSessionClaims): string | undefined {
  return rowKeepsOrganization(options) ? (found.session.activeOrganizationId ?? undefined) : sealed.activeOrganizationId;
}

/** True when the request carries an assurance cookie. */
function hasAssurance(options: InternalOptions, request: RequestInternal): boolean {
  return request.cookies[options.cookies.sessionAssurance.name] !== undefined;
}

/**
 * Extends a session due for it: its row's expiry, its cookie, its sealed claims (`sealed`, when the request
 * had them) and its record, the cookies pushed onto `cookies`. A failure is logged and the session read
 * as it was.
 */
async function extend(
  options: InternalOptions,
  {
    found,
    sessionToken,
    sealed,
    cookies,
  }: { found: Found; sessionToken: string; sealed: SealedSessionClaims | undefined; cookies: Cookie[] },
): Promise<AdapterSession> {
  const expires = sessionEnd(new Date(Date.now() + options.session.maxAge * 1000), sealed?.assurance);
  let stored: AdapterSession = found.session;
  try {
    await inSpan("authlib.session.refresh", { "authlib.session.strategy": "database" }, async () => {
      stored = (await adapterOf(options).updateSession({ sessionToken, expires })) || { ...stored, expires };
      cookies.push(sessionCookie(options, sessionToken, expires));
      if (sealed && (sealed.assurance || sealed.activeOrganizationId))
        cookies.push(await (await assuranceCookie()).sealAssurance(options, sessionToken, sealed, expires));
      const id = found.session.id;
      const registry = options.sessionRegistry;
      if (registry && id) await (await loadRegistry()).touchSession(options, registry, { userId: found.user.id, id }, expires);
    });
  } catch (error) {
    options.logger.error(new SessionTokenError("Could not extend the database session.", { cause: error as Error }));
  }
  return stored;
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
    const cookie = tokenCookie(options, request);
    if (cookie.unreadable) return { session: null, cookies: clearAllSessionCookies(options, request, cookie.name) };
    if (!sessionToken) return { session: null, cookies: [] };
    const code = hasAssurance(options, request) ? await assuranceCookie() : undefined;
    if (!found)
      return {
        session: null,
        cookies: [...clearAllSessionCookies(options, request, cookie.name), ...(code?.clearAssurance(options) ?? [])],
      };
    const sealed = (await code?.openAssurance(options, request, sessionToken)) ?? {};
    const { assurance } = sealed;

    const { maxAge, updateAge } = options.session;
    const cookies: Cookie[] = [];
    let stored: AdapterSession = found.session;
    const legacy = cookie.name !== options.cookies.sessionToken.name;
    if (legacy) cookies.push(...clearAllSessionCookies(options, request, cookie.name));
    const due = legacy || stored.expires.valueOf() - maxAge * 1000 + updateAge * 1000 <= Date.now();
    if (due) stored = await extend(options, { found, sessionToken, sealed: code && sealed, cookies });
    const refreshed = await refreshAccountsIfDue(options, found.user.id);
    // The callback gets `expires` as the Date that `AdapterSession` types; the client gets an ISO string.
    const impersonator = assurance?.act ? { impersonator: await impersonatorOf(options, assurance.act) } : {};
    // The row's organization is shown only through the membership check below, never as the row has it.
    const { activeOrganizationId: _unchecked, ...row } = stored;
    const organized = await withActiveOrganization(
      options,
      { ...row, user: found.user, ...assurance, ...impersonator },
      found.user.id,
      activeOrganizationOf(options, found, sealed),
    );
    const returned = (await options.callbacks.session({
      session: organized,
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

  async start(options, request, { user, account, assurance, activeOrganizationId }) {
    if (!user.id) throw new SessionTokenError("Cannot start a database session for a user without an id.");
    const expires = sessionEnd(new Date(Date.now() + options.session.maxAge * 1000), assurance);
    const act = assurance?.act;
    const sessionToken = `${act ? IMPERSONATED_TOKEN_PREFIX : ""}${options.session.generateSessionToken()}`;
    const registry = options.sessionRegistry;
    // Only an adapter that keeps session records is given the metadata (another may refuse unknown fields).
    const code = registry ? await loadRegistry() : undefined;
    const provider = act ? impersonatedRecordProvider(act.sub) : (options.provider?.id ?? account?.provider ?? null);
    const metadata = code ? code.sessionMetadata(options, request, provider) : {};
    const inRow = rowKeepsOrganization(options);
    const organization = inRow && activeOrganizationId ? { activeOrganizationId } : {};
    const created = await adapterOf(options).createSession({ sessionToken, userId: user.id, expires, ...metadata, ...organization });
    // An admin's impersonation never ends one of the user's own sessions.
    if (code && registry && created?.id && !act) await code.enforceSessionLimit(options, registry, user.id, created.id);
    // A cookie left under a legacy name would otherwise outlive the new session unseen.
    const legacyNames = legacySessionCookieNames(options.cookies, options.config.acceptAuthjsSessions === true);
    const stale = legacyNames.flatMap((name) => clearAllSessionCookies(options, request, name));
    const sealed = { assurance, activeOrganizationId: inRow ? undefined : activeOrganizationId };
    const assured =
      sealed.assurance || sealed.activeOrganizationId
        ? [await (await assuranceCookie()).sealAssurance(options, sessionToken, sealed, expires)]
        : [];
    return [...stale, sessionCookie(options, sessionToken, expires), ...assured];
  },

  async end(options, request) {
    const { token: sessionToken, name } = tokenCookie(options, request);
    const assured = hasAssurance(options, request) ? (await assuranceCookie()).clearAssurance(options) : [];
    if (!sessionToken) return [...clearAllSessionCookies(options, request, name), ...assured];
    // An impersonated session's sign-out is audited with the admin who acted in it (opening its claims names them).
    if (sessionToken.startsWith(IMPERSONATED_TOKEN_PREFIX)) await (await assuranceCookie()).openAssurance(options, request, sessionToken);
    const session = await adapterOf(options).deleteSession(sessionToken);
    await options.events.signOut({ session });
    const cleared = [...clearAllSessionCookies(options, request, name), ...assured];
    return name === options.cookies.sessionToken.name ? cleared : [...cleared, ...clearSessionCookie(options)];
  },

  async credentialsUser(options, user) {
    const users = requireCapability(options.capabilities, "users");
    const found = (await users.getUser(user.id)) ?? (user.email ? await users.getUserByEmail(user.email.toLowerCase()) : null);
    if (!found) {
      // The password was right (authorize() accepted it): telling the user to check it would be wrong, and
      // only the operator can fix this, so it is a configuration error with the fix in the log.
      throw new UnknownCredentialsUser(
        "authorize() returned a user the adapter does not know (by id or email); database sessions need a stored user. Create the user in the adapter first (`adapter.createUser`, e.g. at sign-up), or use JWT sessions.",
      );
    }
    return found;
  },

  async refreshUser() {
    return [];
  },

  async currentUser(options, request) {
    const { found } = await lookup(options, request);
    return found?.user ?? null;
  },

  async currentSession(options, request) {
    const { sessionToken, found } = await lookup(options, request);
    if (!found || !sessionToken) return null;
    const sealed =
      !rowKeepsOrganization(options) && hasAssurance(options, request)
        ? await (await assuranceCookie()).openAssurance(options, request, sessionToken)
        : {};
    return {
      userId: found.user.id,
      sessionId: found.session.id ?? null,
      activeOrganizationId: activeOrganizationOf(options, found, sealed),
    };
  },

  async setActiveOrganization(options, request, organizationId) {
    const { sessionToken, found } = await lookup(options, request);
    if (!found || !sessionToken) return [];
    if (rowKeepsOrganization(options)) {
      await adapterOf(options).updateSession({ sessionToken, activeOrganizationId: organizationId });
      return [];
    }
    const code = await assuranceCookie();
    const { assurance } = await code.openAssurance(options, request, sessionToken);
    const claims = { assurance, activeOrganizationId: organizationId ?? undefined };
    if (!assurance && organizationId === null) return code.clearAssurance(options);
    return [await code.sealAssurance(options, sessionToken, claims, found.session.expires)];
  },

  async currentAssurance(options, request) {
    const { sessionToken, found } = await lookup(options, request);
    if (!found || !sessionToken) return null;
    const { assurance } = hasAssurance(options, request)
      ? await (await assuranceCookie()).openAssurance(options, request, sessionToken)
      : {};
    return { userId: found.user.id, assurance };
  },
};
