/**
 * The start-up check of the `apiKeys` option (`FeatureDefinition.check`): a typed `AuthError` naming the
 * first bad value, thrown by `createAuth`.
 *
 * @module features/api-keys/config-check
 */
import { AuthError } from "../../errors.js";
import type { AuthConfig } from "../../types/config.js";
import { defaultLifetime, maxLifetime } from "./settings.js";

const TEN_YEARS = 10 * 365 * 24 * 60 * 60;
/** A prefix: lower-case letters and digits, a letter first (no `_`: it ends the prefix in a key). */
const PREFIX = /^[a-z][a-z0-9]{1,15}$/;
/** A scope name: no space (scopes are listed space-separated), printable ASCII. */
const SCOPE = /^[A-Za-z0-9][A-Za-z0-9:._/-]{0,63}$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers a key must not be read from: they carry other credentials, or are set by the browser or proxies. */
const RESERVED_HEADERS = new Set(["authorization", "cookie", "host", "forwarded", "x-forwarded-for", "proxy-authorization"]);

/** The first error in the `apiKeys` option, or `undefined`. */
export function apiKeysConfigError(config: AuthConfig): AuthError | undefined {
  const given = config.apiKeys;
  if (given === undefined) return undefined;
  if (typeof given !== "object" || given === null) return new AuthError('apiKeys must be an object: `apiKeys: { prefix: "acme" }`.');
  if (typeof given.prefix !== "string" || !PREFIX.test(given.prefix))
    return new AuthError('apiKeys.prefix must be 2 to 16 lower-case letters and digits, starting with a letter (e.g. "acme").');
  if (given.scopes !== undefined) {
    if (typeof given.scopes !== "object" || given.scopes === null) return new AuthError("apiKeys.scopes must be an object of scopes.");
    for (const [name, scope] of Object.entries(given.scopes)) {
      if (!SCOPE.test(name))
        return new AuthError(`apiKeys.scopes: "${name}" is not a scope name (letters, digits and : . _ / -, no space).`);
      if (typeof scope?.description !== "string" || scope.description === "")
        return new AuthError(`apiKeys.scopes: "${name}" needs a description.`);
    }
  }
  if (
    given.header !== undefined &&
    (typeof given.header !== "string" || !HEADER.test(given.header) || RESERVED_HEADERS.has(given.header.toLowerCase()))
  )
    return new AuthError(
      "apiKeys.header must be a header name of the app's own (e.g. \"x-api-key\"), not Authorization, Cookie or a proxy's header.",
    );
  const whole = (value: unknown, min: number, max: number) =>
    typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
  if (given.maxPerUser !== undefined && !whole(given.maxPerUser, 1, 10_000))
    return new AuthError("apiKeys.maxPerUser must be a whole number from 1 to 10000.");
  const max = maxLifetime(given);
  const byDefault = defaultLifetime(given);
  if (max !== null && !whole(max, 60, TEN_YEARS))
    return new AuthError("apiKeys.maxExpiresIn must be seconds from 60 to 10 years (whole), or null.");
  if (byDefault !== null && !whole(byDefault, 60, TEN_YEARS))
    return new AuthError("apiKeys.defaultExpiresIn must be seconds from 60 to 10 years (whole), or null.");
  if (max !== null && (byDefault === null || byDefault > max))
    return new AuthError("apiKeys.defaultExpiresIn must not be longer than apiKeys.maxExpiresIn (nor null while maxExpiresIn is set).");
  if (
    given.organizationPermission !== undefined &&
    (typeof given.organizationPermission !== "string" || given.organizationPermission === "")
  )
    return new AuthError('apiKeys.organizationPermission must be a permission name (e.g. "organization:update").');
  return undefined;
}
