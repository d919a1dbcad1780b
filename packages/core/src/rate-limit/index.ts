/**
 * `@authlib/core/rate-limit`: the store contract of the rate limits, the memory store, and the types of
 * the `rateLimit` configuration. The shared stores are `@authlib/core/rate-limit/redis` (Redis) and
 * `hostedDbRateLimitStore` in `@authlib/hosted-db-adapter` (PostgreSQL).
 *
 * @module @authlib/core/rate-limit
 */
export type {
  ClientAddressFunction,
  ClientRequestLimit,
  CredentialsRateLimit,
  EmailRateLimits,
  RateLimitConfig,
} from "./config.js";
export { DOT_INSENSITIVE_DOMAINS, deliveryMailbox } from "./mailbox.js";
export type { MemoryRateLimitStoreOptions, RateLimitStore, RateLimitWindow } from "./store.js";
export { memoryRateLimitStore } from "./store.js";
