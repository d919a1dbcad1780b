/**
 * Applying the environment to a configuration: `setEnvDefaults` fills what the app left unset from the
 * variables `env/read.ts` reads, and the base path's default.
 *
 * @module env/defaults
 */
import { createLogger } from "../logger.js";
import { isOAuthProvider } from "../provider-kind.js";
import type { AuthConfig, LoggerInstance } from "../types/config.js";
import type { ProviderConfig } from "../types/providers.js";
import { type EnvSource, parseBooleanEnv, providerEnvPrefix, readCanonicalUrlEnv, readEnv, readList } from "./read.js";

/** Default base path of authlib's routes. */
export const DEFAULT_BASE_PATH = "/auth";

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
