/**
 * The configuration, resolved once per instance (`createAuth`, or the instance `Auth()` keeps per
 * configuration object).
 *
 * Everything that depends only on the `AuthConfig` is computed here: the providers (presets called once),
 * the cookie options for both values of the secure flag, the callbacks, the wrapped events and adapter,
 * the session strategy, the start-up check with the adapter's typed capabilities, the origin rule
 * (canonical URL parsed, trusted-host patterns compiled) and the set of warnings said. The per-request
 * part (`request-context.ts`) only adds what depends on the request.
 *
 * Warnings about the configuration (`debug-enabled`, `experimental-webauthn`, `trust-host-unrestricted`)
 * and a configuration error are logged when it is resolved, so once per instance.
 *
 * @module resolve
 */

import { createAudit } from "../audit/index.js";
import { processEnv, readEnv } from "../env/read.js";
import { AuthError } from "../errors.js";
import { resolveCookies } from "../http/cookies.js";
import { requestFields } from "../http/input.js";
import { compileOriginPolicy, type OriginPolicy, shouldWarnUnrestrictedTrustHost } from "../http/origin.js";
import { decode, encode } from "../jwt.js";
import { createLogger } from "../logger.js";
import { jwtSessionStrategy } from "../session/jwt.js";
import { lazyDatabaseSessionStrategy } from "../session/lazy-database.js";
import { resolveSessionRegistry } from "../session/registry-of.js";
import { skipCSRFCheck } from "../symbols.js";
import { createTelemetry, type Telemetry } from "../telemetry/index.js";
import type { Audit } from "../types/audit.js";
import type { AuthConfig, CookiesOptions, LoggerInstance } from "../types/config.js";
import type { ConfigOptions, InternalProvider } from "../types/internal.js";
import type { OperationDeclaration } from "../types/operation.js";
import type { ProviderConfig } from "../types/providers.js";
import { type StartupCheck, startupCheck } from "./assert.js";
import { normaliseBasePath, resolveCallbacks, resolveSessionOptions, wrapAdapter, wrapEvents } from "./config.js";
import {
  accountSectionsOf,
  auditsOf,
  builtInCookies,
  cookiesOf,
  eventsOf,
  featuresToLoad,
  hooksOf,
  messagesOf,
  offOperationsOf,
  operationsOf,
  organizationSectionsOf,
  ownerOperationsOf,
  quietErrorsOf,
  rateLimitsOf,
  signInErrorsOf,
  userDetailsOf,
} from "./features.js";
import { createRouter, type Router } from "./router.js";

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
  /** The providers with the URLs of their routes under `authUrl` (made once per `authUrl`, a few at most). */
  providersAt: (authUrl: string) => InternalProvider[];
  /** The cookies for a request whose cookies are secure (`true`) or not. */
  cookies: (secure: boolean) => CookiesOptions;
  /** The redirect proxy's allowed origins for a request from `origin`. */
  redirectProxyAllowedOrigins: (origin: string) => string[];
  /** The app's origin for a request (`http/origin.ts`), compiled once. */
  origin: OriginPolicy;
  /** OpenTelemetry (`telemetry/`); absent with `telemetry: false` or once `@opentelemetry/api` proved absent. */
  telemetry?: Telemetry;
  /** The audit trail (`audit/`); absent without `config.audit`. */
  audit?: Audit;
  /** The operations of the configuration's features, routed (`router.ts`). */
  router: Router;
  /**
   * Set while the code of a feature the configuration turns on loads (an on-demand feature,
   * `kernel/features.ts`): requests and `auth.api` wait for it; it then resolves the configuration again,
   * with the feature, into this same object (its start-up check included: an error is logged then).
   */
  ready?: Promise<void>;
}

/**
 * The configuration resolved, once, for one instance (`instance.ts`). Never throws: a configuration that
 * cannot be read is a resolved configuration with `error` (logged here, so once per instance).
 */
export function resolveConfig(config: AuthConfig): ResolvedAuth {
  const resolved = resolveLoaded(config, false);
  const loading = featuresToLoad(config);
  if (loading) {
    // A feature that cannot load leaves its configuration unusable: the error is the import's, logged once.
    resolved.ready = loading.then(
      () => void Object.assign(resolved, resolveLoaded(config, true), { ready: undefined }),
      (error: unknown) => void Object.assign(resolved, { error: unreadable(resolved.logger, error), ready: undefined }),
    );
  }
  return resolved;
}

/** The configuration resolved with the features loaded so far; `again` when it is resolved a second time (its warnings were said). */
function resolveLoaded(config: AuthConfig, again: boolean): ResolvedAuth {
  const logger = createLogger(config);
  const basePath = normaliseBasePath(config.basePath);
  const base = { config, logger, basePath, origin: refuseOrigin };
  if (config.debug && !again) logger.warn("debug-enabled");
  let read: ReadConfig;
  try {
    read = readConfig(config, logger, basePath);
  } catch (error) {
    return { ...base, router: routerOf(config), error: unreadable(logger, error), ...unusable([]) };
  }
  const { providers, check, options, telemetry, audit, router } = read;
  if (!check.ok) {
    logger.error(check.error);
    return { ...base, router, error: check.error, ...unusable(providers) };
  }

  if (!again) warnAboutConfig(config, providers, logger);
  const { cookies, redirectProxyAllowedOrigins } = cookiesAndProxyOrigins(config);
  return {
    ...base,
    router,
    origin: compileOriginPolicy(config),
    options,
    providers,
    providersAt: providerRoutes(providers),
    cookies,
    redirectProxyAllowedOrigins,
    ...(telemetry ? { telemetry } : {}),
    ...(audit ? { audit } : {}),
  };
}

/** The error of a configuration that could not be read (or whose feature could not load), logged. */
function unreadable(logger: LoggerInstance, cause: unknown): AuthError {
  const error = new AuthError("The configuration could not be read.", { cause: cause as Error });
  logger.error(error);
  return error;
}

/** What reading a configuration makes: its providers, the start-up check's verdict, the shared options. */
interface ReadConfig {
  providers: ProviderConfig[];
  check: StartupCheck;
  options: ConfigOptions;
  telemetry: Telemetry | undefined;
  audit: Audit | undefined;
  router: Router;
}

/** Reads `config` (this throws for a configuration that cannot be read) and runs the start-up check. */
function readConfig(config: AuthConfig, logger: LoggerInstance, basePath: string): ReadConfig {
  // An app's feature that is not well made (`features`) is a configuration error.
  const router = createRouter(operationsOf(config), offOperationsOf(config));
  const providers = config.providers.map((entry) => (typeof entry === "function" ? entry() : entry));
  const session = resolveSessionOptions(config);
  const providerIds = providers.map((provider) => provider.id);
  const telemetry = createTelemetry(config.telemetry, providerIds);
  const audit = createAudit(config, logger, telemetry, providerIds, auditsOf(config));
  const adapter = wrapAdapter(config.adapter, logger, telemetry);
  const check = startupCheck(config, providers, session.strategy, adapter);
  const capabilities = check.ok ? check.capabilities : {};
  const secret = (Array.isArray(config.secret) ? config.secret : [config.secret]).filter((s): s is string => !!s);
  const options: ConfigOptions = {
    audit,
    hooks: hooksOf(config),
    quietErrors: quietErrorsOf(config),
    ownerOperations: ownerOperationsOf(config),
    featureMessages: messagesOf(config),
    accountSections: accountSectionsOf(config),
    organizationSections: organizationSectionsOf(config),
    userDetails: userDetailsOf(config),
    signInErrors: signInErrorsOf(config),
    handlerOf: (name) => (router.has(name) ? withParsedInput(router.named(name)) : undefined),
    basePath,
    secret,
    callbacks: resolveCallbacks(config.callbacks),
    events: wrapEvents(config.events, logger, eventsOf(config)),
    adapter,
    capabilities,
    session,
    sessionStrategy: session.strategy === "database" ? lazyDatabaseSessionStrategy : jwtSessionStrategy,
    sessionRegistry: resolveSessionRegistry(session.strategy, capabilities, session.store),
    jwt: { maxAge: config.jwt?.maxAge ?? session.maxAge, encode, decode, ...config.jwt, secret },
    pages: config.pages ?? {},
    theme: { colorScheme: "auto", ...config.theme },
    logger,
    warned: new Set(),
    instanceState: {},
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
    redirectProxyUrl: config.redirectProxyUrl,
    experimental: config.experimental ?? {},
    rateLimits: { config: config.rateLimit, features: rateLimitsOf(config) },
    config,
  };
  return { providers, check, options, telemetry, audit, router };
}

/** The cookies for both values of the secure flag, and the redirect proxy's allowed origins. */
function cookiesAndProxyOrigins(config: AuthConfig): Pick<ResolvedAuth, "cookies" | "redirectProxyAllowedOrigins"> {
  // Shared by every request: frozen, so an action that changed one would fail loudly instead of leaking
  // its change into other requests.
  const features = cookiesOf(config);
  const secure = freezeCookies(resolveCookies(true, config.cookies, features));
  const plain = freezeCookies(resolveCookies(false, config.cookies, features));
  // The proxy's own origin family: its origin, plus every trusted host (https, or http for loopback:
  // the proxy refuses plain http to any other host anyway).
  const family = (config.trustedHosts ?? []).flatMap((host) => [`https://${host}`, `http://${host}`]);
  const configured = config.redirectProxyAllowedOrigins;
  return {
    cookies: (isSecure) => (isSecure ? secure : plain),
    redirectProxyAllowedOrigins: (origin) => configured ?? [origin, ...family],
  };
}

/**
 * The router of `config`'s operations. An app's feature that is not well made is a configuration error
 * (`resolveConfig`); the requests answered meanwhile are routed by authlib's own operations.
 */
function routerOf(config: AuthConfig): Router {
  try {
    return createRouter(operationsOf(config), offOperationsOf(config));
  } catch {
    const own = { ...config, features: [] };
    return createRouter(operationsOf(own), offOperationsOf(own));
  }
}

/** The configuration's warnings, said when it is resolved. */
function warnAboutConfig(config: AuthConfig, providers: ProviderConfig[], logger: LoggerInstance): void {
  if (config.experimental?.enableWebAuthn && providers.some((p) => p.type === "webauthn")) logger.warn("experimental-webauthn");
  if (shouldWarnUnrestrictedTrustHost(config, readEnv(processEnv(), "NODE_ENV"))) logger.warn("trust-host-unrestricted");
}

/** The providers' route URLs per `authUrl`: an instance is reached under one origin, or a few (trusted hosts). */
const MAX_AUTH_URLS = 16;

/** {@link ResolvedAuth.providersAt} for `providers`: each list made once per `authUrl`, oldest out past the bound. */
function providerRoutes(providers: ProviderConfig[]): (authUrl: string) => InternalProvider[] {
  const byAuthUrl = new Map<string, InternalProvider[]>();
  return (authUrl) => {
    let routed = byAuthUrl.get(authUrl);
    if (!routed) {
      routed = providers.map((provider) => ({
        ...provider,
        signinUrl: `${authUrl}/signin/${provider.id}`,
        callbackUrl: `${authUrl}/callback/${provider.id}`,
      })) as InternalProvider[];
      if (byAuthUrl.size >= MAX_AUTH_URLS) byAuthUrl.delete(byAuthUrl.keys().next().value as string);
      byAuthUrl.set(authUrl, routed);
    }
    return routed;
  };
}

/** The per-request parts of a configuration with an error: never asked for a usable answer. */
function unusable(
  providers: ProviderConfig[],
): Pick<ResolvedAuth, "providers" | "providersAt" | "cookies" | "redirectProxyAllowedOrigins"> {
  return {
    providers,
    providersAt: () => [],
    cookies: () => resolveCookies(false, {}, builtInCookies),
    redirectProxyAllowedOrigins: () => [],
  };
}

/** The origin rule of a configuration with an error: never asked (the error answers every request). */
function refuseOrigin(): never {
  throw new AuthError("The configuration has an error: no origin can be resolved.");
}

function freezeCookies(cookies: CookiesOptions): CookiesOptions {
  for (const cookie of Object.values(cookies)) Object.freeze(Object.freeze(cookie).options);
  return Object.freeze(cookies);
}

/**
 * `operation`'s handler for another operation's request (the account page's forms run the second factor's
 * operations): its input parsed by its schema from that request's form (a POST) or query (a GET).
 */
function withParsedInput(operation: OperationDeclaration): NonNullable<ReturnType<NonNullable<ConfigOptions["handlerOf"]>>> {
  return (options, request) => {
    return operation.handler(options, request, operation.input ? operation.input.parse(requestFields(operation, request)) : undefined);
  };
}
