/**
 * The second-factor operations of `auth.api`: TOTP on and off, the second step of a sign-in, and the
 * step-up check (`requireRecentAuth`). Each runs the route of `<basePath>/two-factor` in process, like
 * every operation (`api.ts`).
 *
 * @module api-two-factor
 */
import { inProcessRequest, type RedirectResult, type RequestLike, redirectOf } from "./api-request.js";
import type { SessionAssurance } from "./base-types.js";
import { perform, type UsableAuth } from "./pipeline.js";

/** What {@link TwoFactorApi.enrollTotp} answers: what the authenticator app needs. */
export interface TotpEnrollment {
  /** The shared secret, base32 (for typing it into the app by hand). */
  secret: string;
  /** The `otpauth://totp/…` URI the app reads. */
  uri: string;
  /** The URI as a QR code: an SVG document (escape nothing: it is authlib's own markup, with no user data but the URI). */
  qrSvg: string;
}

/** The signed-in user's second factors. */
export interface TwoFactorStatus {
  /** The authenticator app (TOTP) is on. */
  totp: boolean;
  /** Recovery codes not used yet (0 without TOTP). */
  recoveryCodes: number;
  /** Passkeys the user can use at the second step. */
  passkeys: number;
}

/** What {@link TwoFactorApi.requireRecentAuth} asks for. */
export interface RecentAuthInput {
  /** The age the sign-in may have, in seconds. */
  maxAge: number;
  /** The assurance level needed: 2 asks for a sign-in with a second factor (or a passkey). Default 1. */
  aal?: 1 | 2;
}

/** The second-factor operations (part of `AuthApi`). */
export interface TwoFactorApi {
  /**
   * Starts setting up an authenticator app for the signed-in user: a new secret (not in use until
   * {@link TwoFactorApi.confirmTotp}), its URI and QR code. Needs a sign-in in the last 10 minutes. Throws
   * `RecentSignInRequired`, `TwoFactorAlreadyEnabled`, `SessionRequired`, `MissingCSRF` (cross-site).
   */
  enrollTotp(request: RequestLike): Promise<TotpEnrollment>;
  /**
   * Turns TOTP on with a code of the app, and answers 10 single-use recovery codes (stored hashed: show
   * them once). Throws `IncorrectCode`, `TwoFactorNotEnabled` (no enrollment), `RecentSignInRequired`, `RateLimited`.
   */
  confirmTotp(request: RequestLike, input: { code: string }): Promise<{ recoveryCodes: string[] }>;
  /**
   * Turns TOTP off with a code of the app or a recovery code; needs a sign-in in the last 10 minutes.
   * Throws `RecentSignInRequired`, `IncorrectCode`, `TwoFactorNotEnabled`, `RateLimited`, `MissingCSRF`.
   */
  disableTotp(request: RequestLike, input: { code: string }): Promise<void>;
  /** The signed-in user's second factors. Throws `SessionRequired`. */
  getTwoFactorStatus(request: RequestLike): Promise<TwoFactorStatus>;
  /**
   * Completes the sign-in waiting for its second step in this browser (its pending cookie) with `code`: a
   * code of the authenticator app or a recovery code. Answers the session's cookies and where to go.
   * Throws `IncorrectCode`, `TwoFactorExpired` (no sign-in waits here: sign in again), `RateLimited`.
   */
  verifyTwoFactor(request: RequestLike, input: { code: string }): Promise<RedirectResult>;
  /**
   * Step-up: the request's session assurance when its sign-in is at most `maxAge` seconds old and of at
   * least level `aal`. Throws `RecentSignInRequired` (with `maxAge` and `aal`) otherwise — send the user
   * to sign in again (the Qwik helpers do) — and `SessionRequired` when nobody is signed in.
   */
  requireRecentAuth(request: RequestLike, input: RecentAuthInput): Promise<SessionAssurance & { userId: string }>;
}

/** The second-factor operations of a usable resolved configuration. */
export function createTwoFactorApi(resolved: UsableAuth): TwoFactorApi {
  async function run(request: RequestLike, method: "GET" | "POST", route: string | undefined, body?: Record<string, unknown>) {
    const parsed = inProcessRequest(resolved, request, { method, action: "two-factor", providerId: route, body });
    return perform(resolved, parsed);
  }
  return {
    async enrollTotp(request) {
      return (await run(request, "POST", "enroll", {})).body as TotpEnrollment;
    },
    async confirmTotp(request, input) {
      return (await run(request, "POST", "confirm", { code: input?.code })).body as { recoveryCodes: string[] };
    },
    async disableTotp(request, input) {
      await run(request, "POST", "disable", { code: input?.code });
    },
    async getTwoFactorStatus(request) {
      return (await run(request, "GET", "status")).body as TwoFactorStatus;
    },
    async verifyTwoFactor(request, input) {
      return redirectOf(await run(request, "POST", undefined, { code: input?.code }));
    },
    async requireRecentAuth(request, input) {
      const { maxAge, aal = 1 } = input ?? ({} as RecentAuthInput);
      if (!(Number.isFinite(maxAge) && maxAge >= 0) || (aal !== 1 && aal !== 2))
        throw new TypeError("requireRecentAuth needs `maxAge` (seconds, 0 or more) and `aal` 1 or 2.");
      const query = { maxAge: String(maxAge), aal: String(aal) };
      const parsed = inProcessRequest(resolved, request, { method: "GET", action: "two-factor", providerId: "assurance", query });
      const { userId, assurance } = (await perform(resolved, parsed)).body as { userId: string; assurance: SessionAssurance };
      return { userId, ...assurance };
    },
  };
}
