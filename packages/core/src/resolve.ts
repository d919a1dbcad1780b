/**
 * The configuration, resolved once per configuration object.
 *
 * Everything that depends only on the `AuthConfig` object is computed the first time `Auth()`,
 * `getSession()`, `runAuthAction()` or `readSession()` sees that object, and kept in a `WeakMap` keyed by
 * it: the providers (presets called once), the cookie options for both values of the secure flag, the
 * callbacks, the wrapped events and adapter, the session strategy, the start-up check with the adapter's
 * typed capabilities, and the origin settings. The per-request part (`http/request-context.ts`) only
 * adds what depends on the request.
 *
 * The object's top-level fields are compared on every request, so replacing one (`config.callbacks = …`)
 * resolves it again; a change inside a field (`config.providers.push(…)`) is not seen. An
 * integration that builds the configuration per request gets the caching by returning the same object
 * each time (a module-level constant, or one object per set of env values it reads); a fresh object per
 * request is resolved per request, as before, and its start-up warnings repeat.
 *
 * Warnings about the configuration (`debug-enabled`, `experimental-webauthn`, `trust-host-unrestricted`)
 * and a configuration error are logged when the object is resolved, so once per configuration object.
 *
 * @module resolve
 */
import { type StartupCheck, startupCheck } from "./assert.js";
import { normaliseBasePath, resolveCallbacks, resolveSessionOptions, wrapAdapter, wrapEvents } from "./config.js";
import { processEnv, readEnv } from "./env.js";
import { AuthError } from "./errors.js";
import { resolveCookies } from "./http/cookies.js";
import { shouldWarnUnrestrictedTrustHost } from "./http/origin.js";
import type { ConfigOptions } from "./internal-types.js";
import { decode, encode } from "./jwt.js";
import { createLogger } from "./logger.js";
import type { ProviderConfig } from "./provider-types.js";
import { databaseSessionStrategy } from "./session/database.js";
import { jwtSessionStrategy } from "./session/jwt.js";
import { skipCSRFCheck } from "./symbols.js";
import type { AuthConfig, CookiesOptions, LoggerInstance } from "./types.js";

/** A configuration resolved once: the start-up check's verdict, and what every request shares. */
export interface ResolvedAuth {
  config: AuthConfig;
  logger: LoggerInstance;
  basePath: string;
  /** The configuration error, when the start-up check failed (logged once, when resolved). */
  error?: AuthError;
  /** The configuration's part of every request's options; absent when the configuration has an error. */
  options?: ConfigOptions;
  /** The providers as objects (each preset called once). */
  providers: ProviderConfig[];
  /** The cookies for a request whose cookies are secure (`true`) or not. */
  cookies: (secure: boolean) => CookiesOptions;
  /** The redirect proxy's allowed origins for a request from `origin`. */
  redirectProxyAllowedOrigins: (origin: string) => string[];
  /** Set when `csrf-disabled` was logged for this configuration. */
  warnedCsrfDisabled: boolean;
}

/** A resolution, and the top-level values of the configuration it was made from. */
interface CacheEntry {
  result: ResolvedAuth;
  values: unknown[];
  keys: string[];
}

const resolved = new WeakMap<AuthConfig, CacheEntry>();

function fieldOf(config: AuthConfig, key: string): unknown {
  return (config as unknown as Record<string, unknown>)[key];
}

/** True when no top-level field of `config` was added, removed or replaced since `entry` was made. */
function unchanged(config: AuthConfig, entry: CacheEntry): boolean {
  const keys = Object.keys(config);
  if (keys.length !== entry.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== entry.keys[i] || fieldOf(config, key) !== entry.values[i]) return false;
  }
  return true;
}

/**
 * The resolved configuration of `config`, computed on first use and cached per object. Never throws: a
 * configuration that cannot be read is a resolved configuration with `error`.
 *
 * Replacing a top-level field of the object (`config.callbacks = …`) is noticed (a cheap comparison of
 * the top-level values per request) and resolves it again; changes inside a field (`config.providers.push`)
 * are not.
 */
export function resolveAuth(config: AuthConfig): ResolvedAuth {
  const cached = resolved.get(config);
  if (cached && unchanged(config, cached)) return cached.result;
  const keys = Object.keys(config);
  const result = resolveUncached(config);
  resolved.set(config, { result, keys, values: keys.map((key) => fieldOf(config, key)) });
  return result;
}

function resolveUncached(config: AuthConfig): ResolvedAuth {
  const logger = createLogger(config);
  const basePath = normaliseBasePath(config.basePath);
  const base = { config, logger, basePath, warnedCsrfDisabled: false };
  if (config.debug) logger.warn("debug-enabled");
  let providers: ProviderConfig[];
  let check: StartupCheck;
  let options: ConfigOptions;
  try {
    providers = config.providers.map((entry) => (typeof entry === "function" ? entry() : entry));
    const session = resolveSessionOptions(config);
    const adapter = wrapAdapter(config.adapter, logger);
    check = startupCheck(config, providers, session.strategy, adapter);
    const secret = (Array.isArray(config.secret) ? config.secret : [config.secret]).filter((s): s is string => !!s);
    options = {
      basePath,
      secret,
      callbacks: resolveCallbacks(config.callbacks),
      events: wrapEvents(config.events, logger),
      adapter,
      capabilities: check.ok ? check.capabilities : {},
      session,
      sessionStrategy: session.strategy === "database" ? databaseSessionStrategy : jwtSessionStrategy,
      jwt: { maxAge: config.jwt?.maxAge ?? session.maxAge, encode, decode, ...config.jwt, secret },
      pages: config.pages ?? {},
      theme: { colorScheme: "auto", ...config.theme },
      logger,
      skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
      redirectProxyUrl: config.redirectProxyUrl,
      experimental: config.experimental ?? {},
      rateLimits: { config: config.rateLimit },
      config,
    };
  } catch (error) {
    const unreadable = new AuthError("The configuration could not be read.", { cause: error as Error });
    logger.error(unreadable);
    return { ...base, error: unreadable, providers: [], cookies: () => resolveCookies(false), redirectProxyAllowedOrigins: () => [] };
  }
  if (!check.ok) {
    logger.error(check.error);
    return { ...base, error: check.error, providers, cookies: () => resolveCookies(false), redirectProxyAllowedOrigins: () => [] };
  }

  warnAboutConfig(config, providers, logger);
  // Shared by every request: frozen, so an action that changed one would fail loudly instead of leaking
  // its change into other requests.
  const secure = freezeCookies(resolveCookies(true, config.cookies));
  const plain = freezeCookies(resolveCookies(false, config.cookies));
  // The proxy's own origin family: its origin, plus every trusted host (https, or http for loopback:
  // the proxy refuses plain http to any other host anyway).
  const family = (config.trustedHosts ?? []).flatMap((host) => [`https://${host}`, `http://${host}`]);
  const configured = config.redirectProxyAllowedOrigins;
  return {
    ...base,
    options,
    providers,
    cookies: (isSecure) => (isSecure ? secure : plain),
    redirectProxyAllowedOrigins: (origin) => configured ?? [origin, ...family],
  };
}

/** The configuration's warnings, said when it is resolved. */
function warnAboutConfig(config: AuthConfig, providers: ProviderConfig[], logger: LoggerInstance): void {
  if (config.experimental?.enableWebAuthn && providers.some((p) => p.type === "webauthn")) logger.warn("experimental-webauthn");
  if (shouldWarnUnrestrictedTrustHost(config, readEnv(processEnv(), "NODE_ENV"))) logger.warn("trust-host-unrestricted");
}

function freezeCookies(cookies: CookiesOptions): CookiesOptions {
  for (const cookie of Object.values(cookies)) Object.freeze(Object.freeze(cookie).options);
  return Object.freeze(cookies);
}
