/**
 * The defaults of the per-key limit on verifications (`rateLimit.apiKeys`), counted on the instance's
 * rate-limit store (memory, PostgreSQL or Redis) under `authlib:apikey:key:<keyed hash of the key id>`.
 *
 * @module features/api-keys/limits
 */
import type { ApiKeyRateLimits } from "./types.js";

/** The defaults of `rateLimit.apiKeys`: 600 verifications per key per minute. */
export const API_KEY_LIMITS: Required<ApiKeyRateLimits> = {
  perKeyMax: 600,
  windowSeconds: 60,
};
