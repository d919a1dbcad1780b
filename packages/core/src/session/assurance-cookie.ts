/**
 * The assurance of a database session (`session/assurance.ts`) and its active organization
 * (`session/active-organization.ts`), which the adapter's session row has no column for: a cookie beside
 * the session cookie, sealed (JWE, salt = its name) and bound to the session's
 * token by a hash of it, so it is read only with the session it was made for (never moved to another
 * session, never made by anyone without the secret). Without it a session is of level 1 and unknown age.
 *
 * @module session/assurance-cookie
 */
import { sha256Hex } from "../crypto/digest.js";
import { type Cookie, expiredCookie } from "../http/cookies.js";
import { decode, encode } from "../jwt.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import { ACTIVE_ORGANIZATION_CLAIM, activeOrganizationIn } from "./active-organization.js";
import { assuranceIn, type SessionAssurance } from "./assurance.js";

/** What the cookie holds for its session: how it was signed in to, and its active organization. */
export interface SealedSessionClaims {
  assurance?: SessionAssurance;
  activeOrganizationId?: string;
}

/** The hash of the session token the cookie is bound to (128 bits of SHA-256). */
async function sessionHashOf(sessionToken: string): Promise<string> {
  return (await sha256Hex(`authlib.session-assurance:${sessionToken}`)).slice(0, 32);
}

/** The cookie that carries `claims` for the session `sessionToken`, until `expires`. */
export async function sealAssurance(
  options: InternalOptions,
  sessionToken: string,
  { assurance, activeOrganizationId }: SealedSessionClaims,
  expires: Date,
): Promise<Cookie> {
  const { name, options: cookieOptions } = options.cookies.sessionAssurance;
  const maxAge = Math.max(1, Math.ceil((expires.valueOf() - Date.now()) / 1000));
  const organization = activeOrganizationId === undefined ? {} : { [ACTIVE_ORGANIZATION_CLAIM]: activeOrganizationId };
  const token = { ...assurance, ...organization, session: await sessionHashOf(sessionToken) };
  const value = await encode({ token, secret: options.secret, salt: name, maxAge });
  return { name, value, options: { ...cookieOptions, expires } };
}

/** What this request's cookie holds for the session `sessionToken` (nothing when it holds none for it). */
export async function openAssurance(
  options: InternalOptions,
  request: RequestInternal,
  sessionToken: string,
): Promise<SealedSessionClaims> {
  const { name } = options.cookies.sessionAssurance;
  const value = request.cookies[name];
  if (!value) return {};
  try {
    const claims = await decode<Record<string, unknown>>({ token: value, secret: options.secret, salt: name });
    if (!claims || claims.session !== (await sessionHashOf(sessionToken))) return {};
    const assurance = assuranceIn(claims);
    if (assurance?.act) request.impersonatorId = assurance.act.sub;
    return { assurance, activeOrganizationId: activeOrganizationIn(claims) };
  } catch {
    return {};
  }
}

/** The cookie that deletes the assurance cookie. */
export function clearAssurance(options: InternalOptions): Cookie[] {
  const { name, options: cookieOptions } = options.cookies.sessionAssurance;
  return [expiredCookie(name, cookieOptions)];
}
