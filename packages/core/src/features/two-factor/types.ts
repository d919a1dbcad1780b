/**
 * The second factor's public types, and what it adds to the shared ones by declaration merging: its
 * `auth.api` operations, its `rateLimit` section, its owner-present operations, audit events, owner
 * notices and texts. The shared declarations name no feature; this module is reached from the package's
 * `index.d.ts` through the feature list (`kernel/features.ts` re-exports these types from `feature.ts`), so
 * an app that imports `@authlib/core` sees every addition.
 *
 * @module features/two-factor/types
 */
import type { RecentAuthInput, RedirectResult, RequestLike } from "../../types/api.js";
import type { SessionAssurance } from "../../types/base.js";

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
  /**
   * Makes 10 new recovery codes with a code of the app (or an unused recovery code): the earlier ones stop
   * working, and the owner is mailed. Show them once. Throws `IncorrectCode`, `TwoFactorNotEnabled`,
   * `RecentSignInRequired`, `RateLimited`, `MissingCSRF`.
   */
  regenerateRecoveryCodes(request: RequestLike, input: { code: string }): Promise<{ recoveryCodes: string[] }>;
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

/**
 * Codes tried at the second step of a sign-in (TOTP and recovery codes) and to turn TOTP off. Only a
 * caller who passed the first factor (or is signed in) can try one, so an anonymous caller cannot use
 * these limits to lock a user out. Each pending sign-in also dies after 5 wrong codes, whatever the settings.
 */
export interface TwoFactorRateLimits {
  /** Codes tried for one user per window. Default 10; a correct code clears the count. */
  userMax?: number;
  /** Codes tried from one client address per window. Default 30. */
  clientMax?: number;
  /** The window, in seconds. Default 900 (15 min). */
  windowSeconds?: number;
}

/** The second factor's keys of the catalog (its texts live in `messages/`, one module per language). */
export interface TwoFactorMessages {
  "signinError.twoFactorExpired": string;
  "twoFactor.title": string;
  "twoFactor.lead": string;
  "twoFactor.codeLabel": string;
  "twoFactor.codeHint": string;
  "twoFactor.continue": string;
  "twoFactor.usePasskey": string;
  "twoFactor.cancel": string;
  "twoFactorError.incorrect": string;
  "twoFactorError.rateLimited": string;
  "twoFactorError.passkeyFailed": string;
  "twoFactorError.passkeyExpired": string;
  "twoFactorError.default": string;
  "mail.change.twoFactorEnabled": string;
  "mail.change.twoFactorDisabled": string;
  "mail.change.recoveryCodeUsed": string;
  "mail.change.recoveryCodesCreated": string;
  "account.twoFactorSection": string;
  "account.twoFactorOff": string;
  "account.twoFactorOn": string;
  "account.twoFactorEnable": string;
  "account.twoFactorScan": string;
  "account.twoFactorQrAlt": string;
  "account.twoFactorKey": string;
  "account.twoFactorCode": string;
  "account.twoFactorConfirm": string;
  "account.recoveryCodesLead": string;
  "account.recoveryCodesLeft": string;
  "account.newRecoveryCodes": string;
  "account.twoFactorDisableCode": string;
  "account.twoFactorDisable": string;
  "account.done.twoFactorOn": string;
  "account.done.twoFactorOff": string;
  "account.done.recoveryCodesNew": string;
  "accountError.incorrectCode": string;
  "accountError.twoFactorAlreadyOn": string;
  "accountError.twoFactorNotOn": string;
}

declare module "../../types/api.js" {
  interface AuthApi extends TwoFactorApi {}
}

declare module "../../types/rate-limit.js" {
  interface RateLimitConfig {
    /** Second-factor codes (see {@link TwoFactorRateLimits}), or `false`. */
    twoFactor?: TwoFactorRateLimits | false;
  }
}

declare module "../../types/i18n.js" {
  interface FeatureMessageTexts extends TwoFactorMessages {}
}

declare module "../../types/operation.js" {
  interface OwnerOperations {
    enrollTotp: true;
    confirmTotp: true;
    disableTotp: true;
    regenerateRecoveryCodes: true;
  }
}

declare module "../../types/telemetry.js" {
  interface AuditEventTypes {
    twoFactorEnabled: true;
    twoFactorDisabled: true;
    recoveryCodesCreated: true;
    twoFactorFailed: true;
  }
}
