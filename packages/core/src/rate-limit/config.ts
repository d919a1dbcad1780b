/**
 * The `rateLimit` configuration: what an app may set, the defaults, and the settings resolved from them
 * once per configuration object, by the first request a limit applies to (so the limiter's code stays
 * out of the bundle of an app until it runs). Every limit is on by default; `rateLimit: false` switches
 * them all off, `rateLimit: { credentials: false }` (and so on) one of them.
 *
 * @module rate-limit/config
 */
import { AuthError } from "../errors.js";
import type {
  EmailRateLimits,
  FeatureRateLimits,
  RateLimitConfig,
  ResolvedCredentialsLimits,
  ResolvedLimit,
  ResolvedRateLimits,
} from "../types/rate-limit.js";

export type {
  ClientAddressFunction,
  ClientRequestLimit,
  CredentialsRateLimit,
  EmailRateLimits,
  RateLimitConfig,
  ResolvedCredentialsLimits,
  ResolvedLimit,
  ResolvedRateLimits,
} from "../types/rate-limit.js";

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
  email: { mailboxMax: 5, clientMax: 30, codeMailboxMax: 10, codeClientMax: 30, windowSeconds: 900 },
  passkey: { max: 30, windowSeconds: 60 },
  sessionUpdate: { max: 60, windowSeconds: 60 },
} satisfies {
  credentials: Omit<ResolvedCredentialsLimits, "identifier">;
  email: Required<EmailRateLimits>;
  passkey: ResolvedLimit;
  sessionUpdate: ResolvedLimit;
};

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

/** A feature's section of `rateLimit` (`rateLimit.<name>`), as given. */
function featureSection(config: RateLimitConfig | undefined, name: string): Partial<Record<string, number>> | false | undefined {
  return config && Object.hasOwn(config, name)
    ? (Reflect.get(config, name) as Partial<Record<string, number>> | false | undefined)
    : undefined;
}

/**
 * The resolved limits of `config` (`false` when switched off), with the features' sections (`features`:
 * each one's defaults by name, `FeatureDefinition.rateLimits`). Throws `AuthError` for a malformed
 * setting: every request a limit applies to then fails as a configuration error (logged), never with
 * the limit silently off.
 */
export function resolveRateLimits(
  config: RateLimitConfig | false | undefined,
  features: FeatureRateLimits = {},
): ResolvedRateLimits | false {
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
    features: Object.fromEntries(
      Object.entries(features).map(([name, defaults]) => [name, section(name, defaults, featureSection(config, name))]),
    ),
    saidNoClientAddress: false,
    saidBehindProxy: false,
  };
}
