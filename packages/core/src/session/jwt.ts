/**
 * The JWT strategy: the session is an encrypted token in the session cookie (chunked when large).
 *
 * Unlike the reference library, the token is not re-encrypted on every session check: the `jwt` callback
 * runs every time, but a new cookie is issued only when `updateAge` has passed since the token was issued,
 * when the callback changed the token, or on an explicit update.
 */

import { JWTSessionError } from "../errors.js";
import { hasChunkedCookie, readChunkedCookie } from "../http/cookie-chunks.js";
import { clearChunkedCookie, incomingSessionCookieName, legacySessionCookieNames, writeChunkedCookie } from "../http/cookies.js";
import type { InternalOptions, RequestInternal, SessionStrategyHandler, SignInResult } from "../internal-types.js";
import { decode as builtInDecode, type JWT } from "../jwt.js";
import type { Session } from "../types.js";
import { copyJson, sameJson } from "./json-shape.js";
import { attachOAuthTokens, OAUTH_CLAIM, refreshIfDue } from "./refresh.js";
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
    options.logger.error(
      error instanceof JWTSessionError ? error : new JWTSessionError("Could not decode the session token.", { cause: error as Error }),
    );
    return null;
  }
}

/** The cookies carrying `token`, valid for `session.maxAge` from now. */
async function writeToken(options: InternalOptions, request: RequestInternal, token: JWT) {
  const { maxAge } = options.session;
  const { sessionToken } = options.cookies;
  const encoded = await options.jwt.encode({ token, secret: options.jwt.secret, salt: sessionToken.name, maxAge: options.jwt.maxAge });
  const expires = new Date(Date.now() + maxAge * 1000);
  return { cookies: writeChunkedCookie(sessionToken, encoded, request.cookies, { expires }), expires };
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
    const token = await options.callbacks.jwt({
      // Only a token holding a provider's tokens can be due a refresh.
      token: payload[OAUTH_CLAIM] === undefined ? payload : await refreshIfDue(options, payload),
      ...(update ? { trigger: "update" as const, session: update.data } : {}),
    });
    if (!token) return { session: null, cookies: clearSession(options, request, name) };

    const issuedAt = typeof payload.iat === "number" ? payload.iat : 0;
    const due = nowInSeconds() - issuedAt >= options.session.updateAge;
    let cookies: Awaited<ReturnType<typeof writeToken>>["cookies"] = [];
    let expires: Date;
    if (update || due || before === undefined || !sameJson(before, token)) {
      ({ cookies, expires } = await writeToken(options, request, token));
    } else {
      expires = new Date(typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + options.session.maxAge * 1000);
    }
    if (name !== sessionToken.name) {
      // A session issued under the legacy name: move it to the configured (`__Host-`) name.
      if (cookies.length === 0) ({ cookies } = await writeToken(options, request, token));
      cookies = [...clearSession(options, request, name), ...cookies];
    }
    const defaultSession: Session = {
      user: { name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null },
      expires: expires.toISOString(),
    };
    const session = (await options.callbacks.session({ session: defaultSession, token })) as Session & { error?: unknown };
    if (token.error === "RefreshTokenError") session.error = token.error;
    await options.events.session({ session, token });
    return { session, cookies };
  },

  async start(options, request, { user, account, profile, isNewUser }: SignInResult) {
    const defaultToken: JWT = { name: user.name, email: user.email, picture: user.image, sub: user.id?.toString() };
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
    return [...stale, ...(await writeToken(options, request, attachOAuthTokens(options, token, account))).cookies];
  },

  async end(options, request) {
    const token = (await readToken(options, request))?.payload ?? null;
    const name = sessionCookieName(options, request);
    if (hasChunkedCookie(request.cookies, name)) await options.events.signOut({ token });
    return clearSession(options, request, name);
  },

  async credentialsUser(_options, user) {
    return user;
  },

  async currentUser(options, request) {
    const payload = (await readToken(options, request))?.payload;
    // The jwt callback is where an app revokes a token: a token it refuses is nobody.
    const token = payload && (await options.callbacks.jwt({ token: payload }));
    if (!token?.sub) return null;
    // With an adapter, only a user that still exists there is signed in.
    if (options.adapter?.getUser) return options.adapter.getUser(token.sub);
    return { id: token.sub, name: token.name, email: token.email, image: token.picture };
  },
};
