/**
 * The doctor's view of the rate limits: where they would not hold as the app expects. Both findings
 * match a warning core logs at run time (`rate-limit-memory-store`, `rate-limit-behind-proxy`), so the
 * doctor says before deploying what the logs would say after.
 *
 * @module cli/doctor/rate-limit
 */
import { usesMemoryStoreInProduction } from "../../rate-limit/limiter.js";
import type { CheckedSetup } from "./checks.js";
import { type Finding, warning } from "./findings.js";

/**
 * Production without a shared store; and an app that says it is behind a proxy (`trustHost` asked for,
 * or `trustedHosts`) without `rateLimit.clientAddress`. Only for a loaded config module: the
 * environment alone cannot say how the limits are set.
 */
export function rateLimitFindings({ config, production, trustHostExplicit }: CheckedSetup): Finding[] {
  const { rateLimit } = config;
  if (rateLimit === false) return [];
  const found: Finding[] = [];
  if (usesMemoryStoreInProduction(rateLimit, production ? "production" : undefined)) {
    found.push(
      warning(
        "The rate limits are counted in each instance's memory (no rateLimit.store) in production: instances count apart and a restart forgets the counts (run-time warning rate-limit-memory-store).",
        "set rateLimit.store to a shared store: hostedDbRateLimitStore(client) from @authlib/hosted-db-adapter, or redisRateLimitStore({ client }) from @authlib/core/rate-limit/redis. With one long-lived instance, this is fine as it is.",
      ),
    );
  }
  const behindProxy = trustHostExplicit || (config.trustedHosts?.length ?? 0) > 0;
  if (behindProxy && rateLimit?.clientAddress === undefined) {
    found.push(
      warning(
        "trustHost says the app is behind a proxy, but rateLimit.clientAddress is not set: every client counts under the proxy's address, so one attacker's failed sign-ins refuse everybody (run-time warning rate-limit-behind-proxy).",
        "set rateLimit.clientAddress to read the client address your proxy sets (e.g. the last X-Forwarded-For entry); see docs/production.md.",
      ),
    );
  }
  return found;
}
