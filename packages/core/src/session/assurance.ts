/**
 * How a session was signed in to: when (`authTime`), by which methods (`amr`) and at which assurance level
 * (`aal`: 1 for one factor, 2 for two, or a passkey that verified its user). Set once at sign-in and kept
 * for the session's life: a JWT carries it as claims, a database session in a sealed cookie bound to its
 * token (`session/assurance-cookie.ts`).
 *
 * The methods are RFC 8176's names where one fits: `pwd` (a password), `otp` (a one-time code of an app), `hwk` (a
 * passkey); and authlib's own for the rest: `email` (an email link or code), `fed` (an OAuth or OIDC
 * provider), `recovery` (a single-use backup code).
 *
 * @module session/assurance
 */
import type { Account, SessionActor, SessionAssurance, SessionSso } from "../types/base.js";

export type { SessionAssurance };

const methodOfAccountType: Readonly<Record<string, string>> = Object.freeze({
  credentials: "pwd",
  email: "email",
  oauth: "fed",
  oidc: "fed",
  webauthn: "hwk",
});

/** The method a sign-in with `account` used (`pwd` for an unknown type: a credentials provider of the app's). */
export function firstFactorMethod(account: Pick<Account, "type"> | null): string {
  return (account && Object.hasOwn(methodOfAccountType, account.type) ? methodOfAccountType[account.type] : undefined) ?? "pwd";
}

/** The assurance of a sign-in that ends with its first factor, now. */
export function singleFactor(method: string): SessionAssurance {
  return { authTime: nowInSeconds(), amr: [method], aal: 1 };
}

/** Seconds since the epoch. */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The assurance held in `claims` (a JWT, a sealed cookie), or `undefined` when it holds none that is
 * well formed (a session from before assurance was kept: the app treats it as level 1 of unknown age).
 */
export function assuranceIn(claims: Record<string, unknown> | null | undefined): SessionAssurance | undefined {
  if (!claims) return undefined;
  const { authTime, amr, aal } = claims;
  if (typeof authTime !== "number" || !Number.isFinite(authTime)) return undefined;
  if (!Array.isArray(amr) || !amr.every((method) => typeof method === "string")) return undefined;
  if (aal !== 1 && aal !== 2) return undefined;
  // The claims' own array and actor: a token the `jwt` callback returned as it came keeps them (see withAssurance).
  const act = actorIn(claims.act);
  const sso = ssoIn(claims.sso);
  const assurance: SessionAssurance = act ? { authTime, amr, aal, act } : { authTime, amr, aal };
  if (sso) assurance.sso = sso;
  return assurance;
}

/** The SSO claim `value` when well formed (`{ organizationId, connectionId }`, set by an SSO sign-in), else `undefined`. */
function ssoIn(value: unknown): SessionSso | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { organizationId, connectionId } = value as Record<string, unknown>;
  // The claims' own object (as the actor's): a token the `jwt` callback returned as it came keeps it, with no copy.
  return typeof organizationId === "string" && organizationId !== "" && typeof connectionId === "string" && connectionId !== ""
    ? (value as SessionSso)
    : undefined;
}

/** The actor claim `value` when well formed (`{ sub, exp }`, set by `impersonateUser`), else `undefined`. */
function actorIn(value: unknown): SessionActor | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { sub, exp } = value as Record<string, unknown>;
  return typeof sub === "string" && sub !== "" && typeof exp === "number" && Number.isFinite(exp) ? (value as SessionActor) : undefined;
}

/** True when `assurance` is an impersonated session's whose time is over (`act.exp` reached). */
export function impersonationOver(assurance: SessionAssurance | undefined, now = nowInSeconds()): boolean {
  return assurance?.act !== undefined && assurance.act.exp <= now;
}

/** The end of a session starting now with `assurance`: `normal` (a Date), or the impersonation's end when sooner. */
export function sessionEnd(normal: Date, assurance: SessionAssurance | undefined): Date {
  const act = assurance?.act;
  return act && act.exp * 1000 < normal.valueOf() ? new Date(act.exp * 1000) : normal;
}

/**
 * `claims` carrying `assurance` (its `authTime`, `amr` and `aal`), or without any of the three when there
 * is none: how a JWT keeps its assurance whatever the `jwt` callback returned. The assurance is authlib's
 * (set at sign-in); a callback that merges client data into the token (`{ ...token, ...session }` on
 * `update`) cannot give a token without it a level or a fresh age.
 */
export function withAssurance<T extends Record<string, unknown>>(claims: T, assurance: SessionAssurance | undefined): T {
  if (!assurance) {
    if (!("authTime" in claims || "amr" in claims || "aal" in claims || "act" in claims || "sso" in claims)) return claims;
    const { authTime: _time, amr: _amr, aal: _aal, act: _act, sso: _sso, ...rest } = claims;
    return rest as T;
  }
  // The session check's common case, the claims unchanged, costs no copy.
  if (
    claims.authTime === assurance.authTime &&
    claims.amr === assurance.amr &&
    claims.aal === assurance.aal &&
    claims.act === assurance.act &&
    (assurance.act !== undefined || !("act" in claims)) &&
    claims.sso === assurance.sso &&
    (assurance.sso !== undefined || !("sso" in claims))
  )
    return claims;
  // An actor and an SSO connection are authlib's alone: one the callback added (client data merged in) is dropped, one it removed comes back.
  const { act: _given, sso: _sso, ...rest } = claims;
  return { ...rest, ...assurance } as unknown as T;
}
