/**
 * The shapes of the rate limits: the `rateLimit` configuration, the store contract, and the settings
 * resolved from them. Declared apart from the limiter (and out of `rate-limit/`, so the types below it need
 * not reach up into that folder); `rate-limit/config.ts`, `rate-limit/store.ts` and `rate-limit/email.ts`
 * re-export them where they were.
 *
 * @module rate-limit-types
 */

/** A key's window as the store holds it. */
export interface RateLimitWindow {
  /** Hits counted in this window, the current one included. */
  count: number;
  /** When the window ends, in milliseconds since the epoch. */
  resetAt: number;
}

/** Counters shared by every instance that should enforce the same limits. */
export interface RateLimitStore {
  /**
   * Adds one hit to `key` atomically (two instances hitting the same key at once count two) and returns
   * the window after the hit. Opens a new window of `windowMs` when none is live.
   */
  increment(key: string, windowMs: number): Promise<RateLimitWindow>;
  /** The live window of `key`, or `null` when it has none (never hit, or its window has ended). */
  get(key: string): Promise<RateLimitWindow | null>;
  /** Forgets `key` (e.g. the failure count of an account after a successful sign-in). */
  reset(key: string): Promise<void>;
  /**
   * Takes the lease `key` for `ttlMs` unless a live one is held, atomically across every instance that
   * shares the store: of any number of concurrent calls, one gets a token. Resolves the holder's token,
   * or `null` when someone holds the lease. A lease ends at {@link RateLimitStore.release} or after `ttlMs`.
   *
   * Optional, with `release`: authlib uses the pair so that one instance at a time spends a provider's
   * refresh token (session/refresh.ts). The PostgreSQL and Redis stores have it; a store without it (the
   * memory store) leaves that coordination to each process.
   */
  lease?(key: string, ttlMs: number): Promise<string | null>;
  /** Ends the lease `key` if `token` still holds it; a lease that ended and was taken by another is left alone. */
  release?(key: string, token: string): Promise<void>;
}

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
  /**
   * Mails to one mailbox per window asked for by anonymous requests. Default 5. The mailbox's known devices
   * (a `Password()` device token for the address) have as many of their own, and once anonymous requests
   * have spent theirs, the address is sent one recovery mail per window (docs/production.md).
   */
  mailboxMax?: number;
  /** Sign-in mail requests from one client address per window. Default 30. */
  clientMax?: number;
  /** Mailed codes tried for one mailbox per window (each mail's code also dies after 5 wrong tries). Default 10. */
  codeMailboxMax?: number;
  /** Mailed codes tried from one client address per window. Default 30. */
  codeClientMax?: number;
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

/**
 * An email provider's own limit on mails per mailbox, over the configuration's `rateLimit.email`;
 * `false` switches the per-mailbox limit off for this provider (the per-client limit stays).
 */
export interface EmailRateLimit {
  /** Mails per mailbox per window. Default: `rateLimit.email.mailboxMax` (5). */
  max?: number;
  /** The window in seconds. Default: `rateLimit.email.windowSeconds` (900, 15 minutes). */
  windowSeconds?: number;
  /** Where this provider's per-mailbox counts live. Default: `rateLimit.store`. */
  store?: RateLimitStore;
}

/**
 * The features' sections of `rateLimit` (`FeatureDefinition.rateLimits`): each one's defaults by its name
 * (`rateLimit.<name>`), every setting a number (`…Seconds` a duration, the rest counts of at least 1).
 */
export type FeatureRateLimits = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** The credentials settings, resolved: every number set. */
export type ResolvedCredentialsLimits = Required<Omit<CredentialsRateLimit, "identifier">> & Pick<CredentialsRateLimit, "identifier">;

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
  email: Required<EmailRateLimits> | false;
  passkey: ResolvedLimit | false;
  sessionUpdate: ResolvedLimit | false;
  /** Each feature's section (`FeatureDefinition.rateLimits`), by name: its settings over its defaults, or `false`. */
  features: Readonly<Record<string, Readonly<Record<string, number>> | false>>;
  /** Set once "no client address" has been logged for this configuration. */
  saidNoClientAddress: boolean;
  /** Set once `rate-limit-behind-proxy` has been logged for this configuration. */
  saidBehindProxy: boolean;
}
