/**
 * Everything that reads environment variables: `setEnvDefaults` fills a configuration from them.
 *
 * @module env
 */
import { createLogger } from "./logger.js";
import { isOAuthProvider } from "./provider-kind.js";
import type { ProviderConfig } from "./providers/types.js";
import type { AuthConfig, LoggerInstance } from "./types.js";

/** Where env variables come from: a plain record (`process.env`) or a getter (`{ get(name) }`, Qwik's `ev.env`). */
export type EnvSource =
  | Record<string, string | undefined>
  | {
      /** The variable's value, or `undefined` when it is unset. */
      get(name: string): string | undefined;
    };

/** Default base path of authlib's routes. */
export const DEFAULT_BASE_PATH = "/auth";

/**
 * Reads one variable from an env source. Empty strings count as unset, and so does a read the runtime
 * refuses: Deno without `--allow-env` throws `NotCapable` on every `process.env`/`Deno.env` read, and an
 * app that passes its whole configuration explicitly must still run there without the permission.
 */
export function readEnv(env: EnvSource, name: string): string | undefined {
  let value: unknown;
  try {
    value =
      typeof env.get === "function"
        ? (env as { get(n: string): string | undefined }).get(name)
        : (env as Record<string, string | undefined>)[name];
  } catch {
    return undefined;
  }
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The process environment where there is one (Node, Bun, Deno's compat); an empty record on edge runtimes. */
export function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** Parses a boolean env value: `true/1/yes/on` and `false/0/no/off`; anything else is `undefined`. */
export function parseBooleanEnv(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (["true", "1", "yes", "on"].includes(v)) return true;
  if (["false", "0", "no", "off"].includes(v)) return false;
  return undefined;
}

/**
 * The canonical URL from the environment: `AUTHLIB_URL`, else `AUTH_URL` (Auth.js's name, accepted so an
 * Auth.js deployment keeps working unchanged). When both are set and differ, `AUTHLIB_URL` wins and
 * `env-url-alias-conflict` is logged through `warn` (getToken passes none: it cannot log warnings).
 */
export function readCanonicalUrlEnv(env: EnvSource, warn?: (code: "env-url-alias-conflict") => void): string | undefined {
  const own = readEnv(env, "AUTHLIB_URL");
  const authjs = readEnv(env, "AUTH_URL");
  if (own !== undefined && authjs !== undefined && own !== authjs) warn?.("env-url-alias-conflict");
  return own ?? authjs;
}

/**
 * Where `setEnvDefaults` reports warnings: a logger, or Auth.js's third argument, `suppressBasePathWarning`
 * (`true` silences `env-url-basepath-redundant`; the other warnings go to the configuration's logger).
 */
export type EnvWarnings = Pick<LoggerInstance, "warn"> | boolean;

/**
 * Fills unset configuration from env variables, in place:
 * - `secret` from `AUTH_SECRET_3`, `AUTH_SECRET_2`, `AUTH_SECRET_1`, `AUTH_SECRET` (newest first: the first
 *   one present encrypts, all decrypt), unless `config.secret` is set;
 * - `url` (the canonical origin) from `AUTHLIB_URL`, else `AUTH_URL` (Auth.js's name), unless set; when both
 *   are set and differ, `AUTHLIB_URL` wins and `env-url-alias-conflict` is logged; an invalid value is kept,
 *   so every request fails with `InvalidOriginConfig` instead of falling back to the request's host;
 * - `basePath` from the path of `url`, unless set (warns `env-url-basepath-redundant` when both are
 *   set and differ), else `/auth`;
 * - `trustedHosts` from `AUTH_TRUSTED_HOSTS` (comma-separated), unless set;
 * - `redirectProxyUrl` from `AUTH_REDIRECT_PROXY_URL`, `redirectProxyAllowedOrigins` from
 *   `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS` (comma-separated);
 * - `trustHost` from `AUTH_TRUST_HOST` (`"false"` means false), else true when `AUTHLIB_URL` is set or
 *   outside production;
 * - each provider's `clientId`/`clientSecret`/`issuer` (OAuth/OIDC) or `apiKey` (email) from
 *   `AUTH_<ID>_ID`, `AUTH_<ID>_SECRET`, `AUTH_<ID>_ISSUER`, `AUTH_<ID>_KEY`, where `<ID>` is the provider id
 *   upper-cased with `-` as `_`.
 *
 * `warnings`: a logger for the warnings (default: the configuration's logger), or, as Auth.js's
 * `setEnvDefaults(env, config, suppressBasePathWarning)` takes it, a boolean.
 */
export function setEnvDefaults(env: EnvSource, config: AuthConfig, warnings?: EnvWarnings): void {
  const logger = envLogger(config, warnings);
  const url = readCanonicalUrlEnv(env, logger.warn);
  config.url ??= url;
  config.basePath = resolveBasePath(config.url, config.basePath, logger);
  config.trustedHosts ??= readList(env, "AUTH_TRUSTED_HOSTS");

  if (!config.secret || (Array.isArray(config.secret) && config.secret.length === 0)) {
    const secrets = ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1", "AUTH_SECRET"]
      .map((name) => readEnv(env, name))
      .filter((s): s is string => s !== undefined);
    if (secrets.length > 0) config.secret = secrets;
  }

  config.redirectProxyUrl ??= readEnv(env, "AUTH_REDIRECT_PROXY_URL");
  config.redirectProxyAllowedOrigins ??= readList(env, "AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS");

  config.trustHost ??=
    parseBooleanEnv(readEnv(env, "AUTH_TRUST_HOST")) ??
    (url !== undefined ||
      readEnv(env, "VERCEL") !== undefined ||
      readEnv(env, "CF_PAGES") !== undefined ||
      readEnv(env, "NODE_ENV") !== "production");

  config.providers = config.providers.map((provider) => {
    const resolved = typeof provider === "function" ? provider() : provider;
    return withProviderEnv(env, resolved, provider);
  });
}

/** The warn function for `setEnvDefaults`' third argument (see {@link EnvWarnings}). */
function envLogger(config: AuthConfig, warnings: EnvWarnings | undefined): Pick<LoggerInstance, "warn"> {
  if (typeof warnings === "object" && warnings !== null) return warnings;
  const { warn } = createLogger(config);
  return { warn: (code) => (warnings === true && code === "env-url-basepath-redundant" ? undefined : warn(code)) };
}

/** A comma-separated env list, entries trimmed, empty entries dropped; `undefined` when unset. */
function readList(env: EnvSource, name: string): string[] | undefined {
  const value = readEnv(env, name);
  return value === undefined
    ? undefined
    : value
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "");
}

function resolveBasePath(url: string | undefined, configured: string | undefined, logger: Pick<LoggerInstance, "warn">): string {
  let fromUrl: string | undefined;
  if (url) {
    try {
      const pathname = new URL(url).pathname.replace(/\/+$/, "");
      if (pathname !== "") fromUrl = pathname;
    } catch {
      logger.warn("invalid-env-url");
    }
  }
  if (configured) {
    if (fromUrl && fromUrl !== configured.replace(/\/+$/, "")) logger.warn("env-url-basepath-redundant");
    return configured;
  }
  return fromUrl ?? DEFAULT_BASE_PATH;
}

/** The prefix of a provider's env variables: `AUTH_<ID>_`, the id upper-cased with `-` as `_`. */
export function providerEnvPrefix(providerId: string): string {
  return `AUTH_${providerId.toUpperCase().replace(/-/g, "_")}_`;
}

function withProviderEnv(env: EnvSource, provider: ProviderConfig, original: unknown): ProviderConfig {
  const prefix = providerEnvPrefix(provider.id);
  const read = (suffix: string) => readEnv(env, prefix + suffix);
  if (isOAuthProvider(provider)) {
    const fromEnv = { clientId: read("ID"), clientSecret: read("SECRET"), issuer: read("ISSUER") };
    const base = typeof original === "function" ? (original as (o: object) => ProviderConfig)(definedOnly(fromEnv)) : provider;
    return {
      ...base,
      clientId: (base as typeof provider).clientId ?? fromEnv.clientId,
      clientSecret: (base as typeof provider).clientSecret ?? fromEnv.clientSecret,
      issuer: (base as typeof provider).issuer ?? fromEnv.issuer,
    } as ProviderConfig;
  }
  if (provider.type === "email") {
    const apiKey = read("KEY");
    const base = typeof original === "function" ? (original as (o: object) => ProviderConfig)(definedOnly({ apiKey })) : provider;
    return { ...base, apiKey: (base as typeof provider).apiKey ?? apiKey } as ProviderConfig;
  }
  return provider;
}

function definedOnly<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;
}
