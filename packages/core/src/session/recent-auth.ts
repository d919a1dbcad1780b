/**
 * Step-up: how recently, and how strongly, the request's session was signed in to. An operation that
 * changes what protects an account (turning a second factor on or off, deleting the account) asks for a
 * recent sign-in, so that a stolen session alone cannot do it; `auth.api.requireRecentAuth` lets the
 * app ask the same for its own operations.
 *
 * @module session/recent-auth
 */

import { RecentSignInRequired, SessionRequired } from "../errors.js";
import type { SessionAssurance } from "../types/base.js";
import type { InternalOptions, RequestInternal } from "../types/internal.js";
import { nowInSeconds } from "./assurance.js";

/** How recent a sign-in must be for authlib's own account-protecting operations, in seconds. */
export const RECENT_AUTH_SECONDS = 10 * 60;

/** What a step-up check asks for. */
export interface RecentAuthRequirement {
  /** The age the sign-in may have, in seconds. */
  maxAge: number;
  /** The assurance level needed (default 1). */
  aal?: 1 | 2;
}

/** True when `assurance` (`undefined`: unknown) meets `requirement` now. */
export function meetsRequirement(assurance: SessionAssurance | undefined, requirement: RecentAuthRequirement): boolean {
  if (!assurance) return false;
  const age = nowInSeconds() - assurance.authTime;
  return age <= requirement.maxAge && assurance.aal >= (requirement.aal ?? 1);
}

/**
 * The signed-in user's id and session assurance when the sign-in meets `requirement`. Throws
 * `SessionRequired` when nobody is signed in, `RecentSignInRequired` (with the `maxAge` and `aal` asked
 * for) when the sign-in is too old or too weak. Once the session names a user, a failure of the request
 * (this refusal included) is audited as theirs.
 */
export async function requireRecentSignIn(
  options: InternalOptions,
  request: RequestInternal,
  requirement: RecentAuthRequirement,
): Promise<{ userId: string; assurance: SessionAssurance }> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  const { assurance } = current;
  if (!assurance || !meetsRequirement(assurance, requirement)) {
    const needsSecond = (requirement.aal ?? 1) > (assurance?.aal ?? 1);
    const error = new RecentSignInRequired(
      needsSecond
        ? "Sign in again with your second factor to continue."
        : `Sign in again to continue: this needs a sign-in in the last ${Math.max(1, Math.round(requirement.maxAge / 60))} minutes.`,
    );
    error.maxAge = requirement.maxAge;
    error.aal = requirement.aal ?? 1;
    throw error;
  }
  return { userId: current.userId, assurance };
}
