/**
 * The counting of registrations and device authorizations per client address (`rateLimit.authorizationServer`).
 *
 * @module features/authorization-server/rate-limit
 */
import type { ResolvedRateLimits } from "../../rate-limit/config.js";
import { countClientRequest } from "../../rate-limit/limiter.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import type { AuthorizationServerRateLimits } from "./types.js";

function limitsIn(limits: ResolvedRateLimits): Required<AuthorizationServerRateLimits> | false {
  return (limits.features.authorizationServer as Required<AuthorizationServerRateLimits> | false | undefined) ?? false;
}

/** Counts one registration (`"registration"`) or device request (`"device"`) from the request's client; throws `RateLimited` past the limit. */
export async function countAnonymousRequest(
  options: InternalOptions,
  request: RequestInternal,
  kind: "registration" | "device",
): Promise<void> {
  await countClientRequest(options, request, kind === "registration" ? "oauth:reg" : "oauth:device", (limits) => {
    const chosen = limitsIn(limits);
    if (!chosen) return false;
    return { max: kind === "registration" ? chosen.registrationMax : chosen.deviceMax, windowSeconds: chosen.windowSeconds };
  });
}
