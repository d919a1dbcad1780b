/**
 * Resolves a configuration into the options of one request: defaults, trusted origin, cookies, CSRF
 * state, the validated callback URL, wrapped events and adapter.
 */
import type { Adapter } from "./adapters.js";
import { DEFAULT_BASE_PATH, processEnv, readEnv } from "./env.js";
import { AdapterError, EventError } from "./errors.js";
import { type Cookie, resolveCookies } from "./http/cookies.js";
import { resolveCsrf } from "./http/csrf.js";
import { openCallbackUrl, sealCallbackUrl } from "./http/flow-binding.js";
import { resolveOrigin, warnUnrestrictedTrustHost } from "./http/origin.js";
import { defaultRedirect, resolveRedirect } from "./http/redirect.js";
import { bodyString } from "./http/request.js";
import type { InternalOptions, InternalProvider, RequestInternal } from "./internal-types.js";
import { DEFAULT_MAX_AGE, decode, encode } from "./jwt.js";
import type { ProviderConfig } from "./providers/types.js";
import { databaseSessionStrategy } from "./session/database.js";
import { jwtSessionStrategy } from "./session/jwt.js";
import { skipCSRFCheck } from "./symbols.js";
import type { AuthConfig, CallbacksOptions, EventCallbacks, LoggerInstance, Session, SessionOptions } from "./types.js";

/**
 * `basePath` as routes are built from it: a leading `/`, no trailing `/`, and `""` for the site root, so
 * that `${basePath}/signin` is always a path (never `//signin`, which a browser reads as a host).
 */
export function normaliseBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? DEFAULT_BASE_PATH).replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : `/${trimmed}`;
}

/** Providers as objects (presets called with no options), with their route URLs. */
export function resolveProviders(config: AuthConfig, authUrl: string): InternalProvider[] {
  return config.providers.map((entry) => {
    const provider: ProviderConfig = typeof entry === "function" ? entry() : entry;
    return {
      ...provider,
      signinUrl: `${authUrl}/signin/${provider.id}`,
      callbackUrl: `${authUrl}/callback/${provider.id}`,
    } as InternalProvider;
  });
}

/** Session options with defaults. */
export function resolveSessionOptions(config: AuthConfig): SessionOptions {
  return {
    strategy: config.session?.strategy ?? (config.adapter ? "database" : "jwt"),
    maxAge: config.session?.maxAge ?? DEFAULT_MAX_AGE,
    updateAge: config.session?.updateAge ?? 24 * 60 * 60,
    generateSessionToken: config.session?.generateSessionToken ?? (() => crypto.randomUUID()),
  };
}

const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  session: ({ session }) =>
    ({
      user: { name: session.user?.name ?? null, email: session.user?.email ?? null, image: session.user?.image ?? null },
      expires: session.expires,
    }) as Session,
  jwt: ({ token }) => token,
};

/** Events wrapped so that a failing handler is logged as `EventError` and never breaks the flow. */
function wrapEvents(events: Partial<EventCallbacks> | undefined, logger: LoggerInstance): EventCallbacks {
  const wrap = <K extends keyof EventCallbacks>(name: K) =>
    (async (message: Parameters<EventCallbacks[K]>[0]) => {
      const handler = events?.[name] as ((m: typeof message) => unknown) | undefined;
      if (!handler) return;
      try {
        await handler(message);
      } catch (error) {
        logger.error(new EventError(`The ${name} event handler threw.`, { cause: error as Error }));
      }
    }) as EventCallbacks[K];
  return {
    signIn: wrap("signIn"),
    signOut: wrap("signOut"),
    createUser: wrap("createUser"),
    updateUser: wrap("updateUser"),
    linkAccount: wrap("linkAccount"),
    session: wrap("session"),
  };
}

/** The adapter with every method wrapped: failures become `AdapterError`, calls are debug-logged. */
function wrapAdapter(adapter: Adapter | undefined, logger: LoggerInstance): Adapter | undefined {
  if (!adapter) return undefined;
  const wrapped: Adapter = {};
  for (const [name, method] of Object.entries(adapter)) {
    if (typeof method !== "function") continue;
    (wrapped as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      logger.debug(`adapter_${name}`);
      try {
        return await method.apply(adapter, args);
      } catch (error) {
        throw new AdapterError(`The adapter's ${name} failed.`, { cause: error as Error });
      }
    };
  }
  return wrapped;
}

/** Log destinations (the app's `warn`, or the built-in one) already told that WebAuthn is experimental. */
const warnedAboutWebAuthn = new WeakSet<object>();
const builtInWarnDestination = {};

/** Warns once per log destination that WebAuthn is experimental, when a WebAuthn provider is enabled. */
function warnExperimentalWebAuthn(config: AuthConfig, providers: InternalProvider[], logger: LoggerInstance): void {
  if (!config.experimental?.enableWebAuthn || !providers.some((p) => p.type === "webauthn")) return;
  const destination = config.logger?.warn ?? builtInWarnDestination;
  if (warnedAboutWebAuthn.has(destination)) return;
  warnedAboutWebAuthn.add(destination);
  logger.warn("experimental-webauthn");
}

/**
 * The origins the redirect proxy may forward to: the configured list, else the proxy's own origin family
 * (its own origin, plus every `trustedHosts` host over https, or over http for loopback hosts: the proxy
 * refuses plain http to any other host anyway).
 */
function redirectProxyAllowedOrigins(config: AuthConfig, origin: string): string[] {
  if (config.redirectProxyAllowedOrigins) return config.redirectProxyAllowedOrigins;
  return [origin, ...(config.trustedHosts ?? []).flatMap((host) => [`https://${host}`, `http://${host}`])];
}

/** Actions that read (or mint) the CSRF cookie even on GET: its forms, and the steps of a sign-in flow. */
const csrfActions = new Set(["csrf", "signin", "signout", "callback", "webauthn-options"]);

/** Resolves the options of one request. Returns the cookies that init itself wants to set. */
export async function initOptions(
  request: RequestInternal,
  config: AuthConfig,
  logger: LoggerInstance,
): Promise<{ options: InternalOptions; cookies: Cookie[] }> {
  // Throws UntrustedHost for a request the trusted-host list refuses (Auth() answers it with a 400 first).
  const origin = resolveOrigin(request.request, config);
  warnUnrestrictedTrustHost(config, logger, readEnv(processEnv(), "NODE_ENV"));
  const basePath = normaliseBasePath(config.basePath);
  const authUrl = `${origin}${basePath}`;
  const providers = resolveProviders(config, authUrl);
  warnExperimentalWebAuthn(config, providers, logger);
  const secret = (Array.isArray(config.secret) ? config.secret : [config.secret]).filter((s): s is string => !!s);
  const useSecureCookies = config.useSecureCookies ?? origin.startsWith("https:");
  const cookies = resolveCookies(useSecureCookies, config.cookies);
  const session = resolveSessionOptions(config);
  const callbacks: CallbacksOptions = { ...defaultCallbacks, ...config.callbacks };
  const skip = config.skipCSRFCheck === skipCSRFCheck;
  const setCookies: Cookie[] = [];

  const candidate = bodyString(request.body, "callbackUrl") ?? request.query.callbackUrl;
  const fromCookie = request.cookies[cookies.callbackUrl.name];

  let csrfToken = "";
  let csrfTokenVerified = skip;
  // Forms, POSTs and every step of a sign-in flow need the token (the flow binding, http/flow-binding.ts,
  // is made from it, even when an integration skips the POST check); a session check (the hot path)
  // skips the HMAC work unless it has a callback-URL cookie to open.
  const isForm = request.method === "POST" || csrfActions.has(request.action);
  if (isForm || (fromCookie !== undefined && !candidate)) {
    // A callback never mints: it must not replace the cookie its flow is bound to.
    const mint = isForm && request.action !== "callback";
    const csrf = await resolveCsrf(request, cookies.csrfToken, secret, origin, mint);
    csrfToken = csrf.token;
    csrfTokenVerified = skip || csrf.verified;
    if (csrf.cookie) setCookies.push(csrf.cookie);
  }

  let callbackUrl = `${origin}/`;
  if (candidate) {
    callbackUrl = await resolveRedirect(candidate, origin, callbacks.redirect, logger);
    // Remembered only for a browser with a CSRF token: the cookie is bound to it.
    const value = csrfToken ? await sealCallbackUrl(secret[0] as string, csrfToken, callbackUrl) : undefined;
    if (value !== undefined && value !== fromCookie)
      setCookies.push({ name: cookies.callbackUrl.name, value, options: cookies.callbackUrl.options });
  } else if (fromCookie) {
    // A cookie this browser did not get from us (planted, or bound to an older CSRF token) is ignored.
    const opened = await openCallbackUrl(secret, csrfToken, fromCookie);
    if (opened !== undefined) callbackUrl = await resolveRedirect(opened, origin, callbacks.redirect, logger);
  }

  const options: InternalOptions = {
    origin,
    basePath,
    authUrl,
    action: request.action,
    provider: providers.find((p) => p.id === request.providerId),
    providers,
    secret,
    cookies,
    useSecureCookies,
    callbacks,
    events: wrapEvents(config.events, logger),
    adapter: wrapAdapter(config.adapter, logger),
    session,
    sessionStrategy: session.strategy === "database" ? databaseSessionStrategy : jwtSessionStrategy,
    jwt: { maxAge: config.jwt?.maxAge ?? session.maxAge, encode, decode, ...config.jwt, secret },
    pages: config.pages ?? {},
    theme: { colorScheme: "auto", ...config.theme },
    logger,
    csrfToken,
    csrfTokenVerified,
    skipCSRFCheck: skip,
    callbackUrl,
    redirectProxyUrl: config.redirectProxyUrl,
    redirectProxyAllowedOrigins: redirectProxyAllowedOrigins(config, origin),
    experimental: config.experimental ?? {},
    config,
  };
  return { options, cookies: setCookies };
}
