/**
 * The limits on second-factor codes: tries per user and per client address (`rateLimit.twoFactor`),
 * tries per pending sign-in (always, even with `rateLimit: false`, then in this configuration's memory),
 * and the single use of each TOTP code: a code accepted once is refused again for as long as it could
 * still be valid.
 *
 * @module features/two-factor/rate-limit
 */

import { codeTryStore, countClientRequest, countRequest, limitKey, limitsOf } from "../../rate-limit/limiter.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import { twoFactorLimits } from "./limits.js";

const TOO_MANY_FOR_USER = "Too many codes tried for this account; try again later.";

/**
 * Counts one code tried for `userId` (at the second step of the pending sign-in `pendingId`, or to turn
 * TOTP off when absent) and returns how many the pending sign-in has had, this one included. Throws
 * `RateLimited` first when the user or the client tried too many in the window.
 */
export async function countSecondFactorTry(
  options: InternalOptions,
  request: RequestInternal,
  attempt: { userId: string; pendingId?: string; lifetimeSeconds: number },
): Promise<number> {
  const limits = limitsOf(options);
  const store = codeTryStore(options);
  const twoFactor = limits ? twoFactorLimits(limits) : false;
  if (twoFactor) {
    const { windowSeconds } = twoFactor;
    await countClientRequest(options, request, "2fa:ip", () => ({ max: twoFactor.clientMax, windowSeconds }));
    await countRequest(options, store, "2fa:user", attempt.userId, { max: twoFactor.userMax, windowSeconds }, TOO_MANY_FOR_USER);
  }
  if (attempt.pendingId === undefined) return 1;
  const key = await limitKey(options, "2fa:try", attempt.pendingId);
  return (await store.increment(key, attempt.lifetimeSeconds * 1000)).count;
}

/** Forgets the user's tried codes after a correct one. */
export async function clearSecondFactorTries(options: InternalOptions, userId: string): Promise<void> {
  const limits = limitsOf(options);
  if (limits && twoFactorLimits(limits)) await codeTryStore(options).reset(await limitKey(options, "2fa:user", userId));
}

/**
 * Claims the single use of `code` (a TOTP step of `userId`, or a recovery code's hash) for `seconds`:
 * true for the first claim, false for every later one, atomically across the instances that share the
 * store.
 */
export async function claimCodeUse(options: InternalOptions, userId: string, code: string, seconds: number): Promise<boolean> {
  const key = await limitKey(options, "2fa:used", `${userId}:${code}`);
  return (await codeTryStore(options).increment(key, seconds * 1000)).count === 1;
}
