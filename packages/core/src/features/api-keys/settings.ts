/**
 * The `apiKeys` option with its defaults, resolved once per configuration.
 *
 * @module features/api-keys/settings
 */
import type { ApiKeysConfig } from "../../types/api-keys.js";
import type { AuthConfig } from "../../types/config.js";

const DAY = 24 * 60 * 60;

/** The `apiKeys` option with its defaults. */
export interface ApiKeySettings {
  prefix: string;
  scopes: Readonly<Record<string, { description: string }>>;
  /** The app's header, lower-case, or `undefined` (only `Authorization: Bearer`). */
  header: string | undefined;
  maxPerUser: number;
  defaultExpiresIn: number | null;
  maxExpiresIn: number | null;
  organizationPermission: string;
}

/** The defaults: 50 keys, 90 days unless asked, at most a year, org keys managed with `organization:update`. */
export const API_KEY_DEFAULTS = {
  maxPerUser: 50,
  defaultExpiresIn: 90 * DAY,
  maxExpiresIn: 365 * DAY,
  organizationPermission: "organization:update",
} as const;

/** The longest lifetime a caller may ask for (`null`: none). */
export function maxLifetime(given: ApiKeysConfig): number | null {
  return given.maxExpiresIn === undefined ? API_KEY_DEFAULTS.maxExpiresIn : given.maxExpiresIn;
}

/** A new key's lifetime when none is asked: the app's, else 90 days or `maxExpiresIn` when that is shorter. */
export function defaultLifetime(given: ApiKeysConfig): number | null {
  if (given.defaultExpiresIn !== undefined) return given.defaultExpiresIn;
  const max = maxLifetime(given);
  return max === null ? API_KEY_DEFAULTS.defaultExpiresIn : Math.min(API_KEY_DEFAULTS.defaultExpiresIn, max);
}

const resolved = new WeakMap<ApiKeysConfig, ApiKeySettings>();

/** The settings of `config.apiKeys` (checked at start-up: `config-check.ts`). */
export function settingsOf(config: AuthConfig): ApiKeySettings {
  const given = config.apiKeys as ApiKeysConfig;
  let settings = resolved.get(given);
  if (!settings) {
    settings = {
      prefix: given.prefix,
      scopes: given.scopes ?? {},
      header: given.header?.toLowerCase(),
      maxPerUser: given.maxPerUser ?? API_KEY_DEFAULTS.maxPerUser,
      defaultExpiresIn: defaultLifetime(given),
      maxExpiresIn: maxLifetime(given),
      organizationPermission: given.organizationPermission ?? API_KEY_DEFAULTS.organizationPermission,
    };
    resolved.set(given, settings);
  }
  return settings;
}
