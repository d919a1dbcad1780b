/**
 * The defaults of the limits on the state anonymous callers make the server store: client registrations and
 * device authorizations, counted per client address (`rateLimit.authorizationServer`; the counting is
 * `rate-limit.ts`, loaded with the first registration or device request).
 *
 * @module features/authorization-server/limits
 */
import type { AuthorizationServerRateLimits } from "./types.js";

/** The defaults of `rateLimit.authorizationServer`. */
export const AUTHORIZATION_SERVER_LIMITS: Required<AuthorizationServerRateLimits> = {
  registrationMax: 20,
  deviceMax: 30,
  windowSeconds: 3600,
};
