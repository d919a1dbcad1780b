/**
 * The public types of impersonation (docs/admin.md, "Impersonation"), and its additions to the shared
 * ones by declaration merging: its `auth.api` methods, its audit events and its cookie.
 *
 * @module features/admin/impersonation-types
 */
import type { RequestLike } from "../../types/api.js";
import type { Cookie } from "../../types/internal.js";

/** What `auth.api.impersonateUser` answers: the user acted as, the session's end, and the cookies to set. */
export interface ImpersonationResult {
  /** The user now acted as. */
  userId: string;
  /** When the impersonated session ends (ISO 8601). */
  expires: string;
  /** The impersonated session's cookies and the one that keeps the admin's session aside: set them on the response. */
  cookies: Cookie[];
}

/** What `auth.api.stopImpersonating` answers. */
export interface StopImpersonationResult {
  /** True when the admin's own session was given back; false when it had ended meanwhile (signed out). */
  restored: boolean;
  /** The cookies that end the impersonated session (and give the admin's back): set them on the response. */
  cookies: Cookie[];
}

/** The impersonation methods of `auth.api` (with `admin: {…}`). */
export interface ImpersonationApi {
  /**
   * Starts a session for `userId` with the calling admin as its actor (`session.act`), keeping the admin's
   * own session aside in the browser. Refused with `AccessDenied` for a non-admin, `ImpersonationForbidden`
   * (its `reason`) for the admin themselves, an unknown user, another admin without `allowAdmins`, a banned
   * user, impersonation turned off, or from an impersonated session.
   */
  impersonateUser(request: RequestLike, input: { userId: string }): Promise<ImpersonationResult>;
  /** From the impersonated session: ends it and gives the admin's session back (or signs out when it ended). */
  stopImpersonating(request: RequestLike): Promise<StopImpersonationResult>;
}

declare module "../../types/api.js" {
  interface AuthApi extends ImpersonationApi {}
}

import type { CookieOption } from "../../types/config.js";

declare module "../../types/config.js" {
  interface CookiesOptions {
    /**
     * While an admin acts as a user (`impersonateUser`): the admin's own session, sealed and kept aside in
     * this browser until `stopImpersonating` gives it back. Present with `admin: {…}`.
     */
    impersonatorSession?: CookieOption;
  }
}

declare module "../../types/telemetry.js" {
  interface AuditEventTypes {
    impersonationStarted: true;
    impersonationStopped: true;
  }
}
