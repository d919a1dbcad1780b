/**
 * The pending sign-in: what a browser keeps between a first factor and the second step. Sealed (JWE,
 * salt = the cookie's name), bound to this browser's CSRF token (`http/flow-binding.ts`), short-lived
 * (`twoFactor.pendingMaxAge`), chunked like the session cookie when the first factor's result is large
 * (an OAuth account with its tokens). It holds the first factor's result and where to go; it starts no
 * session by itself: only the second step, in the same browser, turns it into one.
 *
 * @module two-factor/pending
 */

import { TwoFactorExpired } from "../../errors.js";
import { readChunkedCookie } from "../../http/cookie-chunks.js";
import { type Cookie, clearChunkedCookie, writeChunkedCookie } from "../../http/cookies.js";
import { resolveCsrf } from "../../http/csrf.js";
import { withFailureCookies } from "../../http/error-response.js";
import { bindingMatches, bindingOf } from "../../http/flow-binding.js";
import { decode, encode } from "../../jwt.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { Account, Profile, User } from "../../types/base.js";
import type { InternalOptions, RequestInternal, SignInResult } from "../../types/internal.js";

/** Default lifetime of a pending sign-in, in seconds. */
export const PENDING_MAX_AGE = 600;

/** A sign-in waiting for its second factor. */
export interface PendingSignIn {
  /** A random id: the wrong codes of this pending sign-in are counted under it. */
  id: string;
  /** The user who passed the first factor. */
  userId: string;
  /** The first factor's method (`pwd`, `email`, `fed`). */
  method: string;
  /** Where the sign-in leads (validated by the `redirect` callback when the first factor began). */
  callbackUrl: string;
  /** The first factor's result, handed to the session strategy and the callbacks at the end. */
  result: SignInResult;
}

interface SealedPending extends PendingSignIn {
  /** The browser (CSRF token) that passed the first factor. */
  browser: string;
}

function browserOf(csrfToken: string): Promise<string> {
  return bindingOf(csrfToken, "");
}

/** The lifetime of a pending sign-in in this configuration, in seconds. */
export function pendingMaxAge(options: InternalOptions): number {
  return options.config.twoFactor?.pendingMaxAge ?? PENDING_MAX_AGE;
}

/**
 * The cookies that keep `pending` in this browser, bound to its CSRF token. A first factor whose route
 * only reads that token (a callback) may meet a browser without one (an app's own sign-in form, in
 * process): one is made then, and its cookie set with the pending sign-in's.
 */
export async function sealPending(options: InternalOptions, request: RequestInternal, pending: PendingSignIn): Promise<Cookie[]> {
  const option = options.cookies.twoFactor;
  const maxAge = pendingMaxAge(options);
  const csrf = options.csrfToken
    ? { token: options.csrfToken, cookie: undefined }
    : await resolveCsrf(request, options.cookies.csrfToken, options.secret, options.origin, true);
  const payload: SealedPending = { ...pending, browser: await browserOf(csrf.token) };
  const value = await encode<SealedPending>({ token: payload, secret: options.secret, salt: option.name, maxAge });
  const sealed = writeChunkedCookie(option, value, request.cookies, { maxAge });
  return csrf.cookie ? [csrf.cookie, ...sealed] : sealed;
}

/** A user as the JSON of the cookie gave it back: `emailVerified` a `Date` again. */
function revivedUser(user: User | AdapterUser): User | AdapterUser {
  const verified = user.emailVerified as unknown;
  return typeof verified === "string" ? { ...user, emailVerified: new Date(verified) } : user;
}

/**
 * The pending sign-in of this browser, or `undefined`: no cookie, one that does not open (tampered with,
 * expired, another secret), or one made in another browser (a planted or stolen cookie).
 */
export async function openPending(options: InternalOptions, request: RequestInternal): Promise<PendingSignIn | undefined> {
  const name = options.cookies.twoFactor.name;
  const token = readChunkedCookie(request.cookies, name);
  if (!token) return undefined;
  let sealed: Partial<SealedPending> | null;
  try {
    sealed = await decode<Partial<SealedPending>>({ token, secret: options.secret, salt: name });
  } catch {
    return undefined;
  }
  if (!sealed || typeof sealed.id !== "string" || typeof sealed.userId !== "string" || typeof sealed.method !== "string") return undefined;
  if (typeof sealed.callbackUrl !== "string" || typeof sealed.result?.user !== "object" || sealed.result.user === null) return undefined;
  if (!bindingMatches(sealed.browser, await browserOf(options.csrfToken))) return undefined;
  const { user, account, profile, isNewUser } = sealed.result;
  const result: SignInResult = {
    user: revivedUser(user),
    account: (account ?? null) as Account | null,
    isNewUser: isNewUser === true,
    ...(profile ? { profile: profile as Profile } : {}),
  };
  return { id: sealed.id, userId: sealed.userId, method: sealed.method, callbackUrl: sealed.callbackUrl, result };
}

/** The cookies that delete this browser's pending sign-in. */
export function clearPending(options: InternalOptions, request: RequestInternal): Cookie[] {
  return clearChunkedCookie(options.cookies.twoFactor, request.cookies);
}

/** The pending sign-in of this browser, or `TwoFactorExpired` (carrying the cookies that delete what is left of it). */
export async function pendingOrExpired(options: InternalOptions, request: RequestInternal): Promise<PendingSignIn> {
  const pending = await openPending(options, request);
  if (pending) return pending;
  const message = "No sign-in waits for a second step in this browser (it expired, or began elsewhere): sign in again.";
  throw withFailureCookies(new TwoFactorExpired(message), clearPending(options, request), (cause) => new TwoFactorExpired(String(cause)));
}
