/**
 * Impersonation (docs/admin.md, "Impersonation"): an admin acts as a user to help them, with a trail.
 *
 * - `impersonateUser({ userId })` starts a session for the user whose assurance carries the admin as its
 *   actor (`act: { sub, exp }`, session/assurance.ts), on either session strategy: a claim of the JWT, or
 *   the sealed claims of a database session (whose token is marked: it lives only with them). It lives
 *   `impersonation.maxAge` (default 1 hour, never longer than a normal session). The admin's own session
 *   is kept aside in this browser: its cookies, sealed (JWE, salt = the cookie's name) in a `__Host-`
 *   cookie (on https) bound to this impersonation (the user, the admin and its end).
 * - `stopImpersonating()`, from the impersonated session, ends it and gives the admin's session back; when
 *   that session ended meanwhile (revoked, expired), the browser is simply signed out.
 * - What an impersonated session may not do is decided elsewhere, once for all: every owner-present
 *   operation refuses it (`sign-in/owner-present.ts`), admin operations refuse it (`access.ts`), and it
 *   cannot start another impersonation (here). Each of its requests is audited with both ids.
 *
 * @module features/admin/impersonation
 */

import { recordAuditEvent } from "../../audit/index.js";
import { ImpersonationForbidden, SessionRequired } from "../../errors.js";
import { cookieNamesOf, readChunkedCookie } from "../../http/cookie-chunks.js";
import { type Cookie, clearChunkedCookie, writeChunkedCookie } from "../../http/cookies.js";
import { noStoreHeaders } from "../../http/response.js";
import { decode, encode } from "../../jwt.js";
import { nowInSeconds } from "../../session/assurance.js";
import type { AdapterUser } from "../../types/adapters.js";
import type { ImpersonationConfig } from "../../types/admin.js";
import type { SessionAssurance } from "../../types/base.js";
import type { CookieOption } from "../../types/config.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { adminConfigOf, isAdminUser, requireAdmin } from "./access.js";
import { banRefusal } from "./bans.js";

/** How long an impersonated session lives by default, in seconds (1 hour). */
export const IMPERSONATION_MAX_AGE = 60 * 60;

/** The impersonation settings with their defaults, or `false` when the app turned impersonation off. */
export function impersonationConfigOf(options: Pick<InternalOptions, "config">): Required<ImpersonationConfig> | false {
  const given = adminConfigOf(options).impersonation;
  if (given === false) return false;
  return {
    maxAge: given?.maxAge ?? IMPERSONATION_MAX_AGE,
    allowAdmins: given?.allowAdmins === true,
    showToUser: given?.showToUser !== false,
  };
}

/** The refusal `reason` of an impersonation, with its message. */
function refused(reason: string, message: string): ImpersonationForbidden {
  const error = new ImpersonationForbidden(message);
  error.reason = reason;
  return error;
}

/** What the kept-aside cookie holds: the admin's session cookies, and the impersonation it belongs to. */
interface KeptSession {
  /** The admin's user id (the impersonation's `act.sub`). */
  admin: string;
  /** The user acted as. */
  user: string;
  /** The impersonation's end (its `act.exp`). */
  until: number;
  /** The admin's session cookies, by name (the session token or its chunks, and a database session's sealed claims). */
  cookies: Record<string, string>;
}

/** The kept-aside cookie's option (the feature's cookie, `__Host-authlib.impersonator-session` on https). */
function keptCookie(options: InternalOptions): CookieOption {
  const option = options.cookies.impersonatorSession;
  if (!option) throw new TypeError("The admin feature's cookie is missing: the feature is not loaded.");
  return option;
}

/** The request's session cookies (the session token or its chunks, and the sealed claims of a database session). */
function sessionCookiesOf(options: InternalOptions, request: RequestInternal): Record<string, string> {
  const names = [...cookieNamesOf(request.cookies, options.cookies.sessionToken.name), options.cookies.sessionAssurance.name];
  return Object.fromEntries(names.flatMap((name) => (request.cookies[name] ? [[name, request.cookies[name] as string]] : [])));
}

/** The cookies that keep `kept` in this browser until the impersonation ends. */
async function keepAside(options: InternalOptions, request: RequestInternal, kept: KeptSession): Promise<Cookie[]> {
  const option = keptCookie(options);
  const maxAge = Math.max(1, kept.until - nowInSeconds());
  const value = await encode<KeptSession>({ token: kept, secret: options.secret, salt: option.name, maxAge });
  return writeChunkedCookie(option, value, request.cookies, { maxAge });
}

/** What this browser keeps aside, or `undefined` (none, tampered with, expired, another secret). */
async function keptAside(options: InternalOptions, request: RequestInternal): Promise<KeptSession | undefined> {
  const option = keptCookie(options);
  const value = readChunkedCookie(request.cookies, option.name);
  if (!value) return undefined;
  try {
    const kept = await decode<KeptSession>({ token: value, secret: options.secret, salt: option.name });
    // Its admin, user and end are compared with the impersonation's own by the caller (only equal values, of
    // their types, pass); here only the cookies' shape.
    return kept && typeof kept.cookies === "object" && kept.cookies !== null ? kept : undefined;
  } catch {
    return undefined;
  }
}

/** The name a form or a script gives the user acted as, and the admin: their name, else their email, else their id. */
function displayName(user: Pick<AdapterUser, "id" | "name" | "email"> | null | undefined, id: string): string {
  return user?.name || user?.email || id;
}

/** True for a browser's form that names where to go next (the page banner's Stop button): answered with a redirect, not JSON. */
function isFormPost(request: RequestInternal): boolean {
  return request.inProcess !== true && typeof request.body.callbackUrl === "string";
}

/** What `impersonateUser` answers. */
export interface ImpersonationStarted {
  /** The user now acted as. */
  userId: string;
  /** When the impersonated session ends (ISO 8601). */
  expires: string;
}

/**
 * POST `<basePath>/admin/impersonate` (`auth.api.impersonateUser`): starts a session for `userId` with the
 * calling admin as its actor, keeping the admin's own session aside in this browser. Refused
 * (`ImpersonationForbidden`, with `reason`) when impersonation is off, from an impersonated session, for
 * the admin themselves, an unknown user, another admin (unless `allowAdmins`) or a banned user; by
 * `requireAdmin` for anyone who is not an admin.
 */
export async function impersonateUserAction(
  options: InternalOptions,
  request: RequestInternal,
  { userId }: { userId: string },
): Promise<ResponseInternal<ImpersonationStarted>> {
  const settings = impersonationConfigOf(options);
  if (!settings) throw refused("off", "Impersonation is turned off (`admin.impersonation: false`).");
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  if (current.assurance?.act) {
    request.auditUserId = current.userId;
    throw refused("impersonating", "An impersonated session cannot start another impersonation: stop this one first.");
  }
  const admin = await requireAdmin(options, request);
  if (userId === admin.userId) throw refused("self", "An admin cannot impersonate themselves.");
  const target = await options.adapter?.getUser?.(userId);
  if (!target) throw refused("unknownUser", "No user has this id.");
  if (!settings.allowAdmins && (await isAdminUser(adminConfigOf(options), target)))
    throw refused("admin", "An admin cannot impersonate another admin (`admin.impersonation.allowAdmins` is off).");
  if (await banRefusal(options, userId)) throw refused("banned", "A banned user cannot be impersonated.");

  const now = nowInSeconds();
  const lifetime = Math.max(1, Math.min(settings.maxAge, options.session.maxAge));
  const act = { sub: admin.userId, exp: now + lifetime };
  // The admin's sign-in method is no proof of the user's: the session's one method is the admin's act.
  const assurance: SessionAssurance = { authTime: now, amr: ["impersonation"], aal: 1, act };
  const kept = await keepAside(options, request, {
    admin: admin.userId,
    user: target.id,
    until: act.exp,
    cookies: sessionCookiesOf(options, request),
  });
  // The admin's own session stays alive (it is given back on stop); only this browser's cookie moves.
  const started = await options.sessionStrategy.start(options, request, { user: target, account: null, isNewUser: false, assurance });
  request.impersonatorId = admin.userId;
  recordAuditEvent(options, request, { type: "impersonationStarted", userId: target.id, impersonatorId: admin.userId });
  const body = { userId: target.id, expires: new Date(act.exp * 1000).toISOString() };
  const cookies = [...kept, ...started];
  // Never cached (the answer sets a session); the JSON content type is the answer's own (http/response.ts `toAnswer`).
  return isFormPost(request) ? { redirect: options.callbackUrl, cookies } : { body, headers: noStoreHeaders, cookies };
}

/** What `stopImpersonating` answers. */
export interface ImpersonationStopped {
  /** True when the admin's own session was given back; false when it had ended (the browser is signed out). */
  restored: boolean;
}

/**
 * POST `<basePath>/admin/stop-impersonating` (`auth.api.stopImpersonating`), from the impersonated session:
 * ends it and gives back the admin's session kept aside in this browser, when it is still live (else the
 * browser is signed out). `ImpersonationForbidden` (`notImpersonating`) from any other session.
 */
export async function stopImpersonatingAction(
  options: InternalOptions,
  request: RequestInternal,
): Promise<ResponseInternal<ImpersonationStopped>> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  const act = current.assurance?.act;
  if (!act) throw refused("notImpersonating", "This session is not an impersonation: there is nothing to stop.");
  const kept = await keptAside(options, request);
  const ended = await options.sessionStrategy.end(options, request);
  const cleared = clearChunkedCookie(keptCookie(options), request.cookies);
  // Only the session this impersonation kept aside, for the admin who started it, comes back.
  const mine = kept && kept.admin === act.sub && kept.user === current.userId && kept.until === act.exp;
  const restored = mine ? await restoredSession(options, request, kept) : undefined;
  recordAuditEvent(options, request, {
    type: "impersonationStopped",
    userId: current.userId,
    impersonatorId: act.sub,
    detail: restored ? "restored" : "signedOut",
  });
  const cookies = [...ended, ...cleared, ...(restored ?? [])];
  const body = { restored: restored !== undefined };
  return isFormPost(request) ? { redirect: options.callbackUrl, cookies } : { body, headers: noStoreHeaders, cookies };
}

/**
 * The cookies that put the admin's kept session back in this browser, or `undefined` when it is no longer
 * the admin's live session (ended meanwhile, the admin's account gone): then the browser stays signed out.
 */
async function restoredSession(options: InternalOptions, request: RequestInternal, kept: KeptSession): Promise<Cookie[] | undefined> {
  const sessionNames = cookieNamesOf(request.cookies, options.cookies.sessionToken.name);
  const others = Object.fromEntries(
    Object.entries(request.cookies).filter(([name]) => !sessionNames.includes(name) && name !== options.cookies.sessionAssurance.name),
  );
  // The kept cookies as this browser would send them: the strategy says whether they are a live session.
  const probe: RequestInternal = Object.assign(Object.create(request) as RequestInternal, { cookies: { ...others, ...kept.cookies } });
  const session = await options.sessionStrategy.currentAssurance(options, probe);
  if (session?.userId !== kept.admin || session.assurance?.act) return undefined;
  const expires = new Date(Date.now() + options.session.maxAge * 1000);
  return Object.entries(kept.cookies).map(([name, value]) => {
    const option = name === options.cookies.sessionAssurance.name ? options.cookies.sessionAssurance : options.cookies.sessionToken;
    return { name, value, options: { ...option.options, expires } };
  });
}

/** The text the banner shows for the user acted as and the admin, from the store (their ids when it cannot say). */
export async function impersonationNames(
  options: InternalOptions,
  userId: string,
  adminId: string,
): Promise<{ user: string; admin: string }> {
  const [user, admin] = await Promise.all([options.adapter?.getUser?.(userId), options.adapter?.getUser?.(adminId)]);
  return { user: displayName(user, userId), admin: displayName(admin, adminId) };
}
