/**
 * The `rateLimit` configuration: what an app may set, the defaults, and the settings resolved from them
 * once per configuration object, by the first request a limit applies to (so the limiter's code stays
 * out of the bundle of an app until it runs). Every limit is on by default; `rateLimit: false` switches
 * them all off, `rateLimit: { credentials: false }` (and so on) one of them.
 *
 * @module rate-limit/config
 */
import { AuthError } from "../errors.js";
import type { RateLimitStore } from "./store.js";

/** How the client address of a request is found: `(request, connectionAddress) => address | undefined`. */
export type ClientAddressFunction = (request: Request, connectionAddress: string | undefined) => string | undefined;

/**
 * Failed credentials sign-ins. Per account: a few free failures, then a delay before each next attempt
 * that doubles with each failure, then a lockout once `lockoutFailures` failures fall in one window. Per
 * client address: at most `clientFailures` failures per window. A refused attempt never runs `authorize`
 * (so hashes nothing) and does not make the lockout longer; a successful sign-in clears the account's
 * failures (not the client's).
 */
export interface CredentialsRateLimit {
  /** Failures of one account answered without delay. Default 3. */
  freeFailures?: number;
  /** The delay after the free failures, in seconds; it doubles with each further failure. Default 1. */
  initialDelaySeconds?: number;
  /** Failures of one account within `lockoutWindowSeconds` that lock it until that window ends. Default 10. */
  lockoutFailures?: number;
  /** The window an account's failures are counted in (from its first failure), in seconds. Default 900 (15 min). */
  lockoutWindowSeconds?: number;
  /** Failures from one client address per `clientWindowSeconds`. Default 50. */
  clientFailures?: number;
  /** The window of a client address's failures, in seconds. Default 900 (15 min). */
  clientWindowSeconds?: number;
  /**
   * The account a sign-in attempt is for, from the posted credentials. Default: the first field of the
   * provider's `credentials` whose `type` is not `"password"` (else `email`, else `username`), trimmed and
   * lower-cased. `undefined` skips the per-account limit for that attempt.
   */
  identifier?: (credentials: Record<string, unknown>) => string | undefined;
}

/**
 * Sign-in mails. Per mailbox (the address as delivered: case, `+tags` and Gmail's dots do not make a new
 * mailbox) and per client address. An email provider's own `rateLimit` overrides the per-mailbox limit.
 */
export interface EmailRateLimits {
  /** Mails to one mailbox per window. Default 5. */
  mailboxMax?: number;
  /** Sign-in mail requests from one client address per window. Default 30. */
  clientMax?: number;
  /** The window, in seconds. Default 900 (15 min). */
  windowSeconds?: number;
}

/** A limit on requests from one client address. */
export interface ClientRequestLimit {
  /** Requests per window. */
  max?: number;
  /** The window, in seconds. */
  windowSeconds?: number;
}

/** The `rateLimit` option of the configuration. Every field is optional; each has a default. */
export interface RateLimitConfig {
  /**
   * Where the counters live. Default: one memory store per configuration object, which holds for one
   * instance only. Several instances must share one store: `hostedDbRateLimitStore` from
   * `@authlib/hosted-db-adapter` (PostgreSQL) or the Redis store from `@authlib/core/rate-limit/redis`.
   */
  store?: RateLimitStore;
  /**
   * The client address of a request, for the per-client limits. Receives the request and the connection
   * address the framework integration passed (`Auth(request, config, { clientAddress })`). Default: that
   * connection address; headers such as `X-Forwarded-For` are never read unless this function reads them,
   * so set it when (and only when) your proxy sets such a header. Returning `undefined` skips the
   * per-client limits for that request (the per-account and per-mailbox limits still apply).
   */
  clientAddress?: ClientAddressFunction;
  /** Failed credentials sign-ins (see {@link CredentialsRateLimit}), or `false`. */
  credentials?: CredentialsRateLimit | false;
  /** Sign-in mail requests (see {@link EmailRateLimits}), or `false`. */
  email?: EmailRateLimits | false;
  /** Passkey options and passkey callbacks per client address. Default 30 per 60 s; `false` switches it off. */
  passkey?: ClientRequestLimit | false;
  /** `POST /session` (session updates) per client address. Default 60 per 60 s; `false` switches it off. */
  sessionUpdate?: ClientRequestLimit | false;
}

/** A limit as the limiter uses it: at most `max` per window of `windowSeconds`. */
export interface ResolvedLimit {
  max: number;
  windowSeconds: number;
}

/** Every default, in the units of the configuration. */
const DEFAULTS = {
  credentials: {
    freeFailures: 3,
    initialDelaySeconds: 1,
    lockoutFailures: 10,
    lockoutWindowSeconds: 900,
    clientFailures: 50,
    clientWindowSeconds: 900,
  },
  email: { mailboxMax: 5, clientMax: 30, windowSeconds: 900 },
  passkey: { max: 30, windowSeconds: 60 },
  sessionUpdate: { max: 60, windowSeconds: 60 },
};

/** The credentials settings, resolved: every number set. */
export type ResolvedCredentialsLimits = typeof DEFAULTS.credentials & Pick<CredentialsRateLimit, "identifier">;

/**
 * The `rateLimit` configuration, resolved once per configuration object. The limiter's code (and the
 * default memory store) loads on the first limited request, so an app pays for it only when it is used.
 */
export interface ResolvedRateLimits {
  /** The configured store; without one, the limiter makes the memory store on first use (one per configuration). */
  store?: RateLimitStore;
  /** The configured function; without one, the connection address is used. */
  clientAddress?: ClientAddressFunction;
  credentials: ResolvedCredentialsLimits | false;
  email: typeof DEFAULTS.email | false;
  passkey: ResolvedLimit | false;
  sessionUpdate: ResolvedLimit | false;
  /** Set once "no client address" has been logged for this configuration. */
  saidNoClientAddress: boolean;
  /** Set once `rate-limit-behind-proxy` has been logged for this configuration. */
  saidBehindProxy: boolean;
}

/**
 * `given` over `defaults`, every number checked: a duration (`…Seconds`) must be positive, a count a whole
 * number of at least 1. Throws `AuthError` naming the setting otherwise.
 */
function section<T extends Record<string, number>>(name: string, defaults: T, given: Partial<T> | false | undefined): T | false {
  if (given === false) return false;
  const resolved: Record<string, number> = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const value = given?.[key];
    if (value === undefined) continue;
    const duration = key.endsWith("Seconds");
    if (duration ? !(Number.isFinite(value) && value > 0) : !(Number.isSafeInteger(value) && value >= 1)) {
      throw new AuthError(
        `rateLimit.${name}.${key} must be ${duration ? "a positive number of seconds" : "a whole number of at least 1"}.`,
      );
    }
    resolved[key] = value;
  }
  return resolved as T;
}

/**
 * The resolved limits of `config` (`false` when switched off). Throws `AuthError` for a malformed
 * setting: every request a limit applies to then fails as a configuration error (logged), never with
 * the limit silently off.
 */
export function resolveRateLimits(config: RateLimitConfig | false | undefined): ResolvedRateLimits | false {
  if (config === false) return false;
  const { store, clientAddress, credentials } = config ?? {};
  const counts = section("credentials", DEFAULTS.credentials, credentials as Partial<typeof DEFAULTS.credentials> | false);
  return {
    store,
    clientAddress,
    credentials: counts && { ...counts, identifier: credentials ? credentials.identifier : undefined },
    email: section("email", DEFAULTS.email, config?.email),
    passkey: section("passkey", DEFAULTS.passkey, config?.passkey),
    sessionUpdate: section("sessionUpdate", DEFAULTS.sessionUpdate, config?.sessionUpdate),
    saidNoClientAddress: false,
    saidBehindProxy: false,
  };
}
