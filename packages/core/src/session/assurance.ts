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
import type { Account, SessionAssurance } from "../types/base.js";

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
  // The claims' own array: a token the `jwt` callback returned as it came keeps it (see withAssurance).
  return { authTime, amr, aal };
}

/**
 * `claims` carrying `assurance` (its `authTime`, `amr` and `aal`), or without any of the three when there
 * is none: how a JWT keeps its assurance whatever the `jwt` callback returned. The assurance is authlib's
 * (set at sign-in); a callback that merges client data into the token (`{ ...token, ...session }` on
 * `update`) cannot give a token without it a level or a fresh age.
 */
export function withAssurance<T extends Record<string, unknown>>(claims: T, assurance: SessionAssurance | undefined): T {
  if (!assurance) {
    if (!("authTime" in claims || "amr" in claims || "aal" in claims)) return claims;
    const { authTime: _time, amr: _amr, aal: _aal, ...rest } = claims;
    return rest as T;
  }
  // The session check's common case, the claims unchanged, costs no copy.
  if (claims.authTime === assurance.authTime && claims.amr === assurance.amr && claims.aal === assurance.aal) return claims;
  return { ...claims, ...assurance };
}
