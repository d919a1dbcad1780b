/**
 * The second factor's section of `rateLimit` (`rateLimit.twoFactor`): its defaults, declared by the
 * feature (`FeatureDefinition.rateLimits`) and resolved with the other limits, and its resolved settings.
 *
 * @module features/two-factor/limits
 */
import type { ResolvedRateLimits } from "../../types/rate-limit.js";
import type { TwoFactorRateLimits } from "./types.js";

/** The defaults of `rateLimit.twoFactor`. */
export const TWO_FACTOR_LIMITS: Required<TwoFactorRateLimits> = { userMax: 10, clientMax: 30, windowSeconds: 900 };

/** The resolved `rateLimit.twoFactor` of `limits` (`false`: switched off). */
export function twoFactorLimits(limits: ResolvedRateLimits): Required<TwoFactorRateLimits> | false {
  return (limits.features.twoFactor as Required<TwoFactorRateLimits> | false | undefined) ?? false;
}
