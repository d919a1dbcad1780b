/**
 * The JWT strategy: the session is an encrypted token in the session cookie (chunked when large).
 *
 * Unlike the reference library, the token is not re-encrypted on every session check: the `jwt` callback
 * runs every time, but a new cookie is issued only when `updateAge` has passed since the token was issued,
 * when the callback changed the token, or on an explicit update.
 */

import { JWTSessionError, SessionTokenError } from "../errors.js";
import { hasChunkedCookie, readChunkedCookie } from "../http/cookie-chunks.js";
import { clearChunkedCookie, incomingSessionCookieName, legacySessionCookieNames, writeChunkedCookie } from "../http/cookies.js";
import { logFailure } from "../http/log-level.js";
import { decode as builtInDecode, type JWT } from "../jwt.js";
import { inSpan } from "../telemetry/index.js";
import type { Session } from "../types/config.js";
import type { InternalOptions, RequestInternal, SessionStrategyHandler, SignInResult } from "../types/internal.js";
import type { SessionRecord, SessionRegistry } from "../types/session-registry.js";
import { ACTIVE_ORGANIZATION_CLAIM, activeOrganizationIn, withActiveOrganization } from "./active-organization.js";
import { assuranceIn, impersonationOver, sessionEnd, withAssurance } from "./assurance.js";
import { impersonatedRecordProvider, impersonatorOf } from "./impersonation.js";
import { copyJson, sameJson } from "./json-shape.js";
import { attachOAuthTokens, OAUTH_CLAIM, refreshIfDue } from "./refresh.js";
import { loadedRegistry, loadRegistry, SESSION_ID_CLAIM } from "./registry-of.js";
import { decodeCached, tokenCacheOf } from "./token-cache.js";

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The name the session is read from: the configured one, or, only while the app migrates
 * (`acceptAuthjsSessions`) and the request carries no `__Host-` cookie of authlib's, a legacy one (the
 * `__Secure-` name sessions had on https before `__Host-`, or Auth.js's) when the request has no cookie
 * of the configured name (`http/cookies.ts`). The salt is the name the token was issued under, as
 * Auth.js derives it.
 */
function sessionCookieName(options: InternalOptions, request: RequestInternal): string {
  return incomingSessionCookieName(options.cookies, request.cookies, options.config.acceptAuthjsSessions === true);
}

/** Cookies deleting the session under `name` (the configured one or the legacy one). */
function clearSession(options: InternalOptions, request: RequestInternal, name: string) {
  return clearChunkedCookie({ ...options.cookies.sessionToken, name }, request.cookies);
}

/**
 * The token stored in the cookie, or `null` when absent or invalid (logged as `JWTSessionError`). A chunk
 * set of the wrong shape (http/cookie-chunks.ts) is no token. `pristine` is an untouched copy of the
 * payload, to tell whether a callback changed it (`undefined`: cannot tell).
 *
 * With the built-in `decode`, decoded tokens are cached (session/token-cache.ts): a custom `decode` may
 * have rules of its own (a revocation list), so it runs every time.
 */
async function readToken(
  options: InternalOptions,
  request: RequestInternal,
  name = sessionCookieName(options, request),
): Promise<{ payload: JWT; pristine: unknown } | null> {
  const token = readChunkedCookie(request.cookies, name);
  if (!token) return null;
  const { secret, decode } = options.jwt;
  try {
    if (decode === builtInDecode)
      return await decodeCached(tokenCacheOf(options), secret, name, token, () => decode({ token, secret, salt: name }));
    const payload = (await decode({ token, secret, salt: name })) ?? null;
    return payload && { payload, pristine: copyJson(payload) };
  } catch (error) {
    // A token the decoder refused is logged at its level (an ended session: debug; tampered: a warning); a
    // custom decoder that failed otherwise (its key service down) is a fault of the server.
    if (error instanceof JWTSessionError) logFailure(options.logger, error);
    else options.logger.error(new JWTSessionError("Could not decode the session token.", { cause: error as Error }));
    return null;
  }
}

/** The cookies carrying `token`, valid for `session.maxAge` from now (an impersonated session's: until its `act.exp`, when sooner). */
async function writeToken(options: InternalOptions, request: RequestInternal, token: JWT) {
  const { maxAge } = options.session;
  const { sessionToken } = options.cookies;
  const expires = sessionEnd(new Date(Date.now() + maxAge * 1000), assuranceIn(token));
  const jwtMaxAge = Math.max(1, Math.min(options.jwt.maxAge ?? maxAge, Math.ceil((expires.valueOf() - Date.now()) / 1000)));
  const encoded = await options.jwt.encode({ token, secret: options.jwt.secret, salt: sessionToken.name, maxAge: jwtMaxAge });
  return { cookies: writeChunkedCookie(sessionToken, encoded, request.cookies, { expires }), expires };
}

/** What the registry says of a session's token (see {@link recordOf}). */
type RecordVerdict = SessionRecord | null | undefined | "unavailable";

/**
 * The registry's record of the session `payload` (`session/registry.ts`): `undefined` when there is no
 * registry (every valid token is a session); a token without `sid` is adopted when `adoptFrom` (the
 * request) is given, else it is no session; `null` when the session has no live record (revoked: the
 * cookie is cleared), `"unavailable"` when the registry cannot be read (logged; no session for this
 * request, but the cookie stays: the session comes back with the registry). Answered without waiting
 * when this instance read the session within `revalidateAfter` (eventual revocation): the session check
 * then costs what it cost without a registry, plus a map lookup.
 */
function recordOf(options: InternalOptions, payload: JWT, adoptFrom?: RequestInternal): RecordVerdict | Promise<RecordVerdict> {
  const registry = options.sessionRegistry;
  if (!registry) return undefined;
  const code = loadedRegistry();
  if (!code || payload[SESSION_ID_CLAIM] === undefined) return recordFromRegistry(options, registry, payload, adoptFrom);
  const known = code.registeredSession(options, registry, payload);
  return known instanceof Promise ? known.catch((error) => unavailable(options, error)) : known;
}

/** {@link recordOf} when the registry's code or the registry itself must be waited for. */
async function recordFromRegistry(
  options: InternalOptions,
  registry: SessionRegistry,
  payload: JWT,
  adoptFrom: RequestInternal | undefined,
): Promise<RecordVerdict> {
  try {
    const { adoptSession, registeredSession } = await loadRegistry();
    const unregistered = payload[SESSION_ID_CLAIM] === undefined;
    if (unregistered) return adoptFrom ? await adoptSession(options, registry, payload, adoptFrom) : null;
    return await registeredSession(options, registry, payload);
  } catch (error) {
    return unavailable(options, error);
  }
}

function unavailable(options: InternalOptions, error: unknown): "unavailable" {
  options.logger.error(new SessionTokenError("Could not read the session registry.", { cause: error as Error }));
  return "unavailable";
}

/** The JWT session strategy. */
export const jwtSessionStrategy: SessionStrategyHandler = {
  async read(options, request, update) {
    const { sessionToken } = options.cookies;
    const name = sessionCookieName(options, request);
    const read = await readToken(options, request, name);
    if (!read) {
      const hadCookie = hasChunkedCookie(request.cookies, name);
      return { session: null, cookies: hadCookie ? clearSession(options, request, name) : [] };
    }
    // A copy, not a serialisation: JSON.stringify overflows the stack on deeply nested data (issue 19).
    const { payload, pristine: before } = read;
    const verdict = recordOf(options, payload, request);
    const record = verdict instanceof Promise ? await verdict : verdict;
    if (record === "unavailable") return { session: null, cookies: [] };
    const assurance = assuranceOf(payload, request);
    if (record === null || assurance === null) return { session: null, cookies: clearSession(options, request, name) };
    const jwt = await options.callbacks.jwt({
      // Only a token holding a provider's tokens can be due a refresh.
      token: payload[OAUTH_CLAIM] === undefined ? payload : await refreshIfDue(options, payload),
      ...(update ? { trigger: "update" as const, session: update.data } : {}),
    });
    if (!jwt) return { session: null, cookies: clearSession(options, request, name) };
    // The registered session's id and the sign-in's assurance stay in the token whatever the callback returned.
    const activeOrganizationId = activeOrganizationIn(payload);
    const kept = keptClaims(withAssurance(jwt, assurance), activeOrganizationId);
    const token = record && kept[SESSION_ID_CLAIM] !== record.id ? { ...kept, [SESSION_ID_CLAIM]: record.id } : kept;

    const issuedAt = typeof payload.iat === "number" ? payload.iat : 0;
    const due = nowInSeconds() - issuedAt >= options.session.updateAge;
    let cookies: Awaited<ReturnType<typeof writeToken>>["cookies"] = [];
    let expires: Date;
    // An adopted session (its token had no `sid`) is re-issued at once, carrying its new `sid`.
    const adopted = record && payload[SESSION_ID_CLAIM] === undefined;
    if (update || due || adopted || before === undefined || !sameJson(before, token)) {
      ({ cookies, expires } = await inSpan("authlib.session.refresh", { "authlib.session.strategy": "jwt" }, async () => {
        const written = await writeToken(options, request, token);
        if (record && due && options.sessionRegistry)
          await (await loadRegistry()).touchSession(options, options.sessionRegistry, record, written.expires);
        return written;
      }));
    } else {
      expires = new Date(typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + options.session.maxAge * 1000);
    }
    if (name !== sessionToken.name) {
      // A session issued under the legacy name: move it to the configured (`__Host-`) name.
      if (cookies.length === 0) ({ cookies } = await writeToken(options, request, token));
      cookies = [...clearSession(options, request, name), ...cookies];
    }
    const plain: Session = {
      user: { name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null },
      expires: expires.toISOString(),
      ...assurance,
      ...(assurance?.act ? { impersonator: await impersonatorOf(options, assurance.act) } : {}),
    };
    const organized = withActiveOrganization(options, plain, token.sub, activeOrganizationId);
    const defaultSession = organized instanceof Promise ? await organized : organized;
    const session = (await options.callbacks.session({ session: defaultSession, token })) as Session & { error?: unknown };
    if (token.error === "RefreshTokenError") session.error = token.error;
    await options.events.session({ session, token });
    return { session, cookies };
  },

  async start(options, request, { user, account, profile, isNewUser, assurance, activeOrganizationId }: SignInResult) {
    const defaultToken: JWT = withAssurance(
      { name: user.name, email: user.email, picture: user.image, sub: user.id?.toString() },
      assurance,
    );
    const token = await options.callbacks.jwt({
      token: defaultToken,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    });
    const legacyNames = legacySessionCookieNames(options.cookies, options.config.acceptAuthjsSessions === true);
    const stale = legacyNames.flatMap((legacy) => clearSession(options, request, legacy));
    if (!token) return [...stale, ...clearChunkedCookie(options.cookies.sessionToken, request.cookies)];
    const registry = options.sessionRegistry;
    let registered = keptClaims(withAssurance(token, assurance), activeOrganizationId);
    if (registry && typeof token.sub === "string") {
      const provider = assurance?.act ? impersonatedRecordProvider(assurance.act.sub) : (options.provider?.id ?? account?.provider ?? null);
      const expires = sessionEnd(new Date(Date.now() + options.session.maxAge * 1000), assurance);
      const { registerSession, sessionMetadata } = await loadRegistry();
      const metadata = sessionMetadata(options, request, provider);
      const id = await registerSession(options, registry, { userId: token.sub, expires, ...metadata }, !assurance?.act);
      registered = { ...registered, [SESSION_ID_CLAIM]: id };
    }
    return [...stale, ...(await writeToken(options, request, attachOAuthTokens(options, registered, account))).cookies];
  },

  async refreshUser(options, request, user) {
    const token = (await readToken(options, request))?.payload;
    if (!token || token.sub !== user.id) return [];
    return (await writeToken(options, request, { ...token, name: user.name, email: user.email, picture: user.image })).cookies;
  },

  async end(options, request) {
    const token = (await readToken(options, request))?.payload ?? null;
    // Its sign-out is audited with the admin who acted in it.
    const act = token && assuranceIn(token)?.act;
    if (act) request.impersonatorId = act.sub;
    const name = sessionCookieName(options, request);
    const id = token?.[SESSION_ID_CLAIM];
    if (options.sessionRegistry && token && typeof id === "string" && typeof token.sub === "string") {
      try {
        await options.sessionRegistry.delete(token.sub, [id]);
        (await loadRegistry()).forgetSession(options, id);
      } catch (error) {
        // The cookie is cleared anyway; the record ends with the session's expiry.
        options.logger.error(new SessionTokenError("Could not delete the session's record.", { cause: error as Error }));
      }
    }
    if (hasChunkedCookie(request.cookies, name)) await options.events.signOut({ token });
    return clearSession(options, request, name);
  },

  async credentialsUser(_options, user) {
    return user;
  },

  async currentUser(options, request) {
    const token = await liveToken(options, request);
    if (!token?.sub) return null;
    // With an adapter, only a user that still exists there is signed in.
    if (options.adapter?.getUser) return options.adapter.getUser(token.sub);
    return { id: token.sub, name: token.name, email: token.email, image: token.picture };
  },

  async currentSession(options, request) {
    const token = await liveToken(options, request);
    if (!token?.sub) return null;
    const id = token[SESSION_ID_CLAIM];
    return { userId: token.sub, sessionId: typeof id === "string" ? id : null, activeOrganizationId: activeOrganizationIn(token) };
  },

  async setActiveOrganization(options, request, organizationId) {
    const token = await liveToken(options, request);
    if (!token?.sub) return [];
    const { [ACTIVE_ORGANIZATION_CLAIM]: _previous, ...rest } = token;
    const next: JWT = organizationId === null ? rest : { ...rest, [ACTIVE_ORGANIZATION_CLAIM]: organizationId };
    return (await writeToken(options, request, next)).cookies;
  },

  async currentAssurance(options, request) {
    const token = await liveToken(options, request);
    return token?.sub ? { userId: token.sub, assurance: assuranceIn(token) } : null;
  },
};

/**
 * The token of this request's session as the app sees it, or `null`: not revoked in the registry (the
 * registry must answer), and accepted by the `jwt` callback, where an app revokes tokens of its own.
 */
async function liveToken(options: InternalOptions, request: RequestInternal): Promise<JWT | null> {
  const payload = (await readToken(options, request))?.payload;
  if (!payload) return null;
  const assurance = assuranceOf(payload, request);
  if (assurance === null) return null;
  const record = await recordOf(options, payload);
  if (record === null || record === "unavailable") return null;
  const token = await options.callbacks.jwt({ token: payload });
  const kept = token && keptClaims(withAssurance(token, assurance), activeOrganizationIn(payload));
  return kept && record ? { ...kept, [SESSION_ID_CLAIM]: record.id, sub: record.userId } : kept;
}

/**
 * The assurance `payload` carries, its actor (an impersonation's admin) named on `request` for the audit
 * trail and the span; `null` for an impersonation whose time is over (no session).
 */
function assuranceOf(payload: JWT, request: RequestInternal): ReturnType<typeof assuranceIn> | null {
  const assurance = assuranceIn(payload);
  if (impersonationOver(assurance)) return null;
  if (assurance?.act) request.impersonatorId = assurance.act.sub;
  return assurance;
}

/**
 * `claims` with the active organization the payload had (`undefined`: none), whatever the `jwt` callback
 * returned: the claim is authlib's, set only after a membership check, and a callback that merges client
 * data into the token cannot set or move it. Unchanged claims cost no copy.
 */
function keptClaims(claims: JWT, activeOrganizationId: string | undefined): JWT {
  if (claims[ACTIVE_ORGANIZATION_CLAIM] === activeOrganizationId) return claims;
  const { [ACTIVE_ORGANIZATION_CLAIM]: _given, ...rest } = claims;
  return activeOrganizationId === undefined ? rest : { ...rest, [ACTIVE_ORGANIZATION_CLAIM]: activeOrganizationId };
}
