/**
 * The start-up check of the `sso` option (`FeatureDefinition.check`): connections belong to organizations,
 * so `sso` without `organizations` is refused (`InvalidSsoConfig`); the clock skew, SCIM's page size and the
 * metadata fetch's options are checked.
 *
 * @module features/sso/config-check
 */
import { type AuthError, InvalidSsoConfig } from "../../errors.js";
import type { AuthConfig } from "../../types/config.js";
import type { SsoConfig } from "../../types/sso.js";

/** The first error in the `sso` option, or `undefined`. */
export function ssoConfigError(config: AuthConfig): AuthError | undefined {
  const given = config.sso;
  if (given === undefined) return undefined;
  if (typeof given !== "object" || given === null) return new InvalidSsoConfig("sso must be an object: `sso: {}`.");
  if (config.organizations === undefined)
    return new InvalidSsoConfig("sso needs organizations: SSO connections belong to an organization. Add `organizations: {}`.");
  const skew = given.clockSkew;
  if (skew !== undefined && !(Number.isInteger(skew) && skew >= 0 && skew <= 300))
    return new InvalidSsoConfig("sso.clockSkew must be a whole number of seconds from 0 to 300.");
  const max = given.scim?.maxResults;
  if (max !== undefined && !(Number.isInteger(max) && max >= 1 && max <= 1000))
    return new InvalidSsoConfig("sso.scim.maxResults must be a whole number from 1 to 1000.");
  return metadataUrlsError(given.metadataUrls);
}

/** The first error in `sso.metadataUrls`, or `undefined`. */
function metadataUrlsError(given: SsoConfig["metadataUrls"]): AuthError | undefined {
  if (given === undefined) return undefined;
  if (typeof given !== "object" || given === null) return new InvalidSsoConfig("sso.metadataUrls must be an object.");
  if (given.allowPrivateAddresses !== undefined && typeof given.allowPrivateAddresses !== "boolean")
    return new InvalidSsoConfig("sso.metadataUrls.allowPrivateAddresses must be true or false.");
  const timeout = given.timeout;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 30_000))
    return new InvalidSsoConfig("sso.metadataUrls.timeout must be a whole number of milliseconds from 1 to 30000.");
  if (given.ca !== undefined && (typeof given.ca !== "string" || !given.ca.includes("-----BEGIN CERTIFICATE-----")))
    return new InvalidSsoConfig("sso.metadataUrls.ca must be a PEM certificate.");
  return undefined;
}
