/**
 * The `rateLimit` configuration: what an app may set, the defaults, and the settings resolved from them
 * once per configuration object (`resolve.ts`). Every limit is on by default; `rateLimit: false` switches
 * them all off, `rateLimit: { credentials: false }` (and so on) one of them.
 *
 * @module rate-limit/config
 */
import { AuthError } from "../errors.js";
import { defaultClientAddress } from "./client-address.js";
import { memoryRateLimitStore, type RateLimitStore } from "./store.js";

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

/** A limit as the limiter uses it. */
export interface ResolvedLimit {
  max: number;
  windowMs: number;
}

/** The credentials limits, resolved. */
export interface ResolvedCredentialsLimits {
  freeFailures: number;
  initialDelayMs: number;
  account: ResolvedLimit;
  client: ResolvedLimit;
  identifier?: (credentials: Record<string, unknown>) => string | undefined;
}

/** The `rateLimit` configuration, resolved once per configuration object. */
export interface ResolvedRateLimits {
  store: RateLimitStore;
  clientAddress: ClientAddressFunction;
  credentials: ResolvedCredentialsLimits | false;
  email: { mailbox: ResolvedLimit; client: ResolvedLimit } | false;
  passkey: ResolvedLimit | false;
  sessionUpdate: ResolvedLimit | false;
  /** Set once "no client address" has been logged for this configuration. */
  saidNoClientAddress: boolean;
}

const MINUTE = 60;
const QUARTER_HOUR = 15 * MINUTE;

/** A positive whole count from the configuration, else the default; anything else is a configuration error. */
function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new AuthError(`rateLimit.${name} must be a whole number of at least 1.`);
  return value;
}

/** A positive duration in seconds from the configuration (else the default), in milliseconds. */
function seconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback * 1000;
  if (!Number.isFinite(value) || value <= 0) throw new AuthError(`rateLimit.${name} must be a positive number of seconds.`);
  return Math.ceil(value * 1000);
}

function clientLimit(limit: ClientRequestLimit | false | undefined, max: number, window: number, name: string): ResolvedLimit | false {
  if (limit === false) return false;
  return { max: count(limit?.max, max, `${name}.max`), windowMs: seconds(limit?.windowSeconds, window, `${name}.windowSeconds`) };
}

/**
 * The resolved limits of `config` (`false` when switched off). Throws `AuthError` for a malformed
 * setting, which the configuration's resolution reports at start-up.
 */
export function resolveRateLimits(config: RateLimitConfig | false | undefined): ResolvedRateLimits | false {
  if (config === false) return false;
  const c = config ?? {};
  const credentials = c.credentials;
  const email = c.email;
  const freeFailures = credentials ? count(credentials.freeFailures, 3, "credentials.freeFailures") : 3;
  return {
    store: c.store ?? memoryRateLimitStore(),
    clientAddress: c.clientAddress ?? defaultClientAddress,
    credentials:
      credentials === false
        ? false
        : {
            freeFailures,
            initialDelayMs: seconds(credentials?.initialDelaySeconds, 1, "credentials.initialDelaySeconds"),
            account: {
              max: count(credentials?.lockoutFailures, 10, "credentials.lockoutFailures"),
              windowMs: seconds(credentials?.lockoutWindowSeconds, QUARTER_HOUR, "credentials.lockoutWindowSeconds"),
            },
            client: {
              max: count(credentials?.clientFailures, 50, "credentials.clientFailures"),
              windowMs: seconds(credentials?.clientWindowSeconds, QUARTER_HOUR, "credentials.clientWindowSeconds"),
            },
            identifier: credentials?.identifier,
          },
    email:
      email === false
        ? false
        : {
            mailbox: {
              max: count(email?.mailboxMax, 5, "email.mailboxMax"),
              windowMs: seconds(email?.windowSeconds, QUARTER_HOUR, "email.windowSeconds"),
            },
            client: {
              max: count(email?.clientMax, 30, "email.clientMax"),
              windowMs: seconds(email?.windowSeconds, QUARTER_HOUR, "email.windowSeconds"),
            },
          },
    passkey: clientLimit(c.passkey, 30, MINUTE, "passkey"),
    sessionUpdate: clientLimit(c.sessionUpdate, 60, MINUTE, "sessionUpdate"),
    saidNoClientAddress: false,
  };
}
