/**
 * The start-up check of the `authorizationServer` option (`FeatureDefinition.check`): loaded with the
 * feature, so it stays small; the settings themselves are resolved on first use (`settings.ts`).
 *
 * @module features/authorization-server/config-check
 */
import { AuthError } from "../../errors.js";
import type { AuthConfig } from "../../types/config.js";

const DAY = 24 * 60 * 60;

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The first error in the `authorizationServer` option, or `undefined` (the start-up check). */
export function authorizationServerConfigError(config: AuthConfig): AuthError | undefined {
  const given = config.authorizationServer;
  if (given === undefined) return undefined;
  const inRange = (value: number | undefined, min: number, max: number) =>
    value === undefined || (Number.isInteger(value) && value >= min && value <= max);
  if (
    !inRange(given.accessTokenMaxAge, 30, DAY) ||
    !inRange(given.refreshTokenMaxAge, 60, 365 * DAY) ||
    !inRange(given.keyRotation, DAY, 365 * DAY)
  )
    return new AuthError(
      "authorizationServer needs accessTokenMaxAge 30 s to 1 day, refreshTokenMaxAge 60 s to 365 days, keyRotation 1 to 365 days (integers).",
    );
  if (!inRange(given.deviceCode?.maxAge, 60, 3600) || !inRange(given.deviceCode?.interval, 1, 60))
    return new AuthError("authorizationServer.deviceCode needs maxAge 60 to 3600 s and interval 1 to 60 s (integers).");
  for (const name of Object.keys(given.scopes ?? {}))
    if (!SCOPE_TOKEN.test(name)) return new AuthError(`authorizationServer.scopes: "${name}" is not a scope token (RFC 6749 §3.3).`);
  if (given.issuer !== undefined && !isHttpsOrLoopback(given.issuer))
    return new AuthError("authorizationServer.issuer must be an https URL without query or fragment (http only on a loopback host).");
  for (const resource of given.resources ?? [])
    if (!URL.canParse(resource) || resource.includes("#"))
      return new AuthError(`authorizationServer.resources: "${resource}" is not an absolute URL without a fragment.`);
  const ids = new Set<string>();
  for (const client of given.clients ?? []) {
    if (typeof client.clientId !== "string" || client.clientId === "" || ids.has(client.clientId))
      return new AuthError("authorizationServer.clients: each client needs a clientId, unique among them.");
    ids.add(client.clientId);
    if (!Array.isArray(client.redirectUris) || client.redirectUris.some((uri) => !URL.canParse(uri) || uri.includes("#")))
      return new AuthError(`authorizationServer.clients: "${client.clientId}" needs absolute redirectUris without a fragment.`);
    if (client.clientSecret !== undefined && client.clientSecret.length < 32)
      return new AuthError(`authorizationServer.clients: the secret of "${client.clientId}" must be at least 32 characters.`);
  }
  return undefined;
}

function isHttpsOrLoopback(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.search || url.hash || value.includes("#")) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname));
}
