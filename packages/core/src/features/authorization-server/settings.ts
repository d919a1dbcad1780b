/**
 * The `authorizationServer` option resolved once per configuration object: its scopes (the built-in ones
 * and the app's), resources, declared clients and lifetimes, and the start-up check of the option.
 *
 * @module features/authorization-server/settings
 */
import { AuthError } from "../../errors.js";
import type { AuthorizationServerConfig, ConfiguredClient, OAuthClient, ScopeDeclaration } from "../../types/authorization-server.js";
import type { AuthConfig } from "../../types/config.js";
import type { InternalOptions } from "../../types/internal.js";

/** The scopes every authorization server knows: OpenID Connect's and `offline_access` (a refresh token). */
export const BUILT_IN_SCOPES: Readonly<Record<string, ScopeDeclaration>> = Object.freeze({
  openid: { description: "openid" },
  profile: { description: "profile" },
  email: { description: "email" },
  offline_access: { description: "offline_access" },
});

const DAY = 24 * 60 * 60;

/** The option with its defaults. */
export interface ServerSettings {
  scopes: Readonly<Record<string, ScopeDeclaration>>;
  /** The resources tokens may be for (empty: only the issuer). */
  resources: readonly string[];
  /** The declared clients, by id, with their secrets (compared by hash at the token endpoint). */
  clients: ReadonlyMap<string, { client: OAuthClient; secret: string | undefined }>;
  registration: false | Exclude<AuthorizationServerConfig["registration"], boolean | undefined> | Record<string, never>;
  clientMetadataDocuments:
    | false
    | Exclude<AuthorizationServerConfig["clientMetadataDocuments"], boolean | undefined>
    | Record<string, never>;
  accessTokenMaxAge: number;
  refreshTokenMaxAge: number;
  keyRotation: number;
  codeMaxAge: number;
  deviceCodeMaxAge: number;
  deviceCodeInterval: number;
}

const settings = new WeakMap<AuthorizationServerConfig, ServerSettings>();

/** The settings of the instance's `authorizationServer` option (resolved on first use, then kept). */
export function settingsOf(options: Pick<InternalOptions, "config">): ServerSettings {
  const config = options.config.authorizationServer as AuthorizationServerConfig;
  let resolved = settings.get(config);
  if (!resolved) {
    resolved = resolveSettings(config);
    settings.set(config, resolved);
  }
  return resolved;
}

/** The issuer: the configured one, else the app's URL plus the base path (RFC 8414 §2: no query, no fragment). */
export function issuerOf(options: Pick<InternalOptions, "config" | "authUrl">): string {
  return options.config.authorizationServer?.issuer ?? options.authUrl;
}

/** The URL of one of the endpoints under `<basePath>/oauth2/`. */
export function endpointUrl(options: Pick<InternalOptions, "authUrl">, name: string): string {
  return `${options.authUrl}/oauth2/${name}`;
}

/** The resources a request may name: the configured ones, else the issuer. */
export function allowedResources(options: Pick<InternalOptions, "config" | "authUrl">): readonly string[] {
  const { resources } = settingsOf(options);
  return resources.length > 0 ? resources : [issuerOf(options)];
}

function resolveSettings(config: AuthorizationServerConfig): ServerSettings {
  const clients = new Map(
    (config.clients ?? []).map((given) => [given.clientId, { client: declaredClient(given), secret: given.clientSecret }]),
  );
  const registration = config.registration === true ? {} : config.registration || false;
  const documents = config.clientMetadataDocuments === true ? {} : config.clientMetadataDocuments || false;
  return {
    scopes: { ...BUILT_IN_SCOPES, ...config.scopes },
    resources: config.resources ?? [],
    clients,
    registration,
    clientMetadataDocuments: documents,
    accessTokenMaxAge: config.accessTokenMaxAge ?? 600,
    refreshTokenMaxAge: config.refreshTokenMaxAge ?? 30 * DAY,
    keyRotation: config.keyRotation ?? 30 * DAY,
    codeMaxAge: 60,
    deviceCodeMaxAge: config.deviceCode?.maxAge ?? 600,
    deviceCodeInterval: config.deviceCode?.interval ?? 5,
  };
}

/** A client of the configuration as the store would hold it. */
function declaredClient(given: ConfiguredClient): OAuthClient {
  const method = given.tokenEndpointAuthMethod ?? (given.clientSecret ? "client_secret_basic" : given.jwks ? "private_key_jwt" : "none");
  return {
    clientId: given.clientId,
    clientSecretHash: null,
    name: given.name,
    redirectUris: [...given.redirectUris],
    grantTypes: given.grantTypes ?? ["authorization_code", "refresh_token"],
    tokenEndpointAuthMethod: method,
    scopes: given.scopes ?? null,
    jwks: given.jwks ?? null,
    clientUri: given.clientUri ?? null,
    logoUri: given.logoUri ?? null,
    source: "config",
    createdAt: new Date(0),
  };
}

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
