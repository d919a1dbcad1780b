/**
 * The `authorizationServer` option resolved once per configuration object: its scopes (the built-in ones
 * and the app's), resources, declared clients and lifetimes, and the start-up check of the option.
 *
 * @module features/authorization-server/settings
 */
import type { AuthorizationServerConfig, ConfiguredClient, OAuthClient, ScopeDeclaration } from "../../types/authorization-server.js";
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
