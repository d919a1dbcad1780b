/**
 * The JWT strategy: the session is an encrypted token in the session cookie (chunked when large).
 *
 * Unlike the reference library, the token is not re-encrypted on every session check: the `jwt` callback
 * runs every time, but a new cookie is issued only when `updateAge` has passed since the token was issued,
 * when the callback changed the token, or on an explicit update.
 */

import { JWTSessionError } from "../errors.js";
import { readChunkedCookie } from "../http/cookie-chunks.js";
import { clearChunkedCookie, writeChunkedCookie } from "../http/cookies.js";
import type { InternalOptions, RequestInternal } from "../internal-types.js";
import type { JWT } from "../jwt.js";
import type { Session } from "../types.js";
import { copyJson, sameJson } from "./json-shape.js";
import { attachOAuthTokens, refreshIfDue } from "./refresh.js";
import type { SessionStrategyHandler, SignInResult } from "./types.js";

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The token stored in the cookie, or `null` when absent or invalid (logged as `JWTSessionError`). */
async function readToken(options: InternalOptions, request: RequestInternal): Promise<JWT | null> {
  const { name } = options.cookies.sessionToken;
  const token = readChunkedCookie(request.cookies, name);
  if (!token) return null;
  try {
    return (await options.jwt.decode({ token, secret: options.jwt.secret, salt: name })) ?? null;
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
    const payload = await readToken(options, request);
    if (!payload) {
      const hadCookie = readChunkedCookie(request.cookies, sessionToken.name) !== undefined;
      return { session: null, cookies: hadCookie ? clearChunkedCookie(sessionToken, request.cookies) : [] };
    }
    // A copy, not a serialisation: JSON.stringify overflows the stack on deeply nested data (issue 19).
    const before = copyJson(payload);
    const token = await options.callbacks.jwt({
      token: await refreshIfDue(options, payload),
      ...(update ? { trigger: "update" as const, session: update.data } : {}),
    });
    if (!token) return { session: null, cookies: clearChunkedCookie(sessionToken, request.cookies) };

    const issuedAt = typeof payload.iat === "number" ? payload.iat : 0;
    const due = nowInSeconds() - issuedAt >= options.session.updateAge;
    let cookies: Awaited<ReturnType<typeof writeToken>>["cookies"] = [];
    let expires: Date;
    if (update || due || before === undefined || !sameJson(before, token)) {
      ({ cookies, expires } = await writeToken(options, request, token));
    } else {
      expires = new Date(typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + options.session.maxAge * 1000);
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
    if (!token) return clearChunkedCookie(options.cookies.sessionToken, request.cookies);
    return (await writeToken(options, request, attachOAuthTokens(options, token, account))).cookies;
  },

  async end(options, request) {
    const token = await readToken(options, request);
    if (readChunkedCookie(request.cookies, options.cookies.sessionToken.name) !== undefined) {
      await options.events.signOut({ token });
    }
    return clearChunkedCookie(options.cookies.sessionToken, request.cookies);
  },

  async currentUser(options, request) {
    const payload = await readToken(options, request);
    // The jwt callback is where an app revokes a token: a token it refuses is nobody.
    const token = payload && (await options.callbacks.jwt({ token: payload }));
    if (!token?.sub) return null;
    // With an adapter, only a user that still exists there is signed in.
    if (options.adapter?.getUser) return options.adapter.getUser(token.sub);
    return { id: token.sub, name: token.name, email: token.email, image: token.picture };
  },
};
