/**
 * The types of the OAuth 2.1 authorization server (`authorizationServer` in the configuration,
 * docs/authorization-server.md): its clients, the user's consents and grants, authorization and device
 * codes, and the signing keys of its access and ID tokens, with the adapter methods that keep them.
 *
 * @module types/authorization-server
 */
import type { Awaitable } from "./base.js";

/**
 * How a client proves itself at the token endpoint: `none` for a public client (PKCE only). The same type
 * serves a provider's client (`ClientAuthMethod` of the providers is this one).
 */
export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/** The grants a client may use: no implicit, no password grant. */
export type OAuthGrantType = "authorization_code" | "refresh_token" | "urn:ietf:params:oauth:grant-type:device_code";

/** A public JSON Web Key (RFC 7517) of a client, for `private_key_jwt`. */
export interface ClientJwk {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  [member: string]: unknown;
}

/** A client of the authorization server, as stored (or declared in the configuration). */
export interface OAuthClient {
  clientId: string;
  /** The SHA-256 (hex) of its secret, for `client_secret_basic`/`_post`; the secret itself is never stored. */
  clientSecretHash: string | null;
  /** Its name, shown on the consent page. */
  name: string;
  /** Its redirect URIs, matched exactly (a loopback one with any port, RFC 8252). */
  redirectUris: string[];
  grantTypes: OAuthGrantType[];
  tokenEndpointAuthMethod: ClientAuthMethod;
  /** The scopes it may ask for (`null`: any scope the server knows). */
  scopes: string[] | null;
  /** Its public keys, for `private_key_jwt` (inline). */
  jwks: ClientJwk[] | null;
  /** Where its page is, shown on the consent page. */
  clientUri: string | null;
  logoUri: string | null;
  /** How it came: declared in the configuration, registered (RFC 7591), or its client-id URL's metadata document. */
  source: "config" | "registered" | "metadata-document";
  createdAt: Date;
}

/** What a user agreed to give a client: remembered per user and client, asked again for a scope beyond it. */
export interface OAuthConsent {
  userId: string;
  clientId: string;
  scopes: string[];
  updatedAt: Date;
}

/**
 * An authorization code: single use, short-lived, bound to its client, redirect URI, PKCE challenge and
 * resource. Stored by the SHA-256 (hex) of the code.
 */
export interface OAuthAuthorizationCode {
  codeHash: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  /** The audiences (RFC 8707 `resource`) the tokens are for. */
  resources: string[];
  /** The PKCE S256 challenge. */
  codeChallenge: string;
  nonce: string | null;
  /** When the user signed in (seconds since the epoch): the ID token's `auth_time`. */
  authTime: number;
  /** The session's assurance level (1 or 2), and how it signed in: the ID token's `acr`/`amr`. */
  aal: number;
  amr: string[];
  expiresAt: Date;
  /** Set when the code is exchanged, with the grant it made: a second exchange finds it and revokes that grant. */
  usedAt: Date | null;
  grantId: string | null;
}

/**
 * A grant: what one authorization gave one client for one user, with its refresh-token family. A refresh
 * token names its grant and generation; each use moves the grant to the next generation, so a token of an
 * earlier one is a reuse, and kills the family (`revokedAt`).
 */
export interface OAuthGrant {
  id: string;
  userId: string;
  clientId: string;
  scopes: string[];
  resources: string[];
  /** A random value per grant that its refresh tokens are derived from (never shown). */
  secret: string;
  /** The generation of the refresh token that is valid now. */
  generation: number;
  /** Whether it has a refresh token at all (`offline_access`). */
  refreshable: boolean;
  authTime: number;
  aal: number;
  amr: string[];
  createdAt: Date;
  lastUsedAt: Date;
  /** When its refresh token stops working (`null` while it has none). */
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A device authorization (RFC 8628): the device polls with its code while the user approves the user code. */
export interface OAuthDeviceCode {
  /** The SHA-256 (hex) of the device code. */
  deviceCodeHash: string;
  /** The code the user types, normalised (upper case, no dash). */
  userCode: string;
  clientId: string;
  scopes: string[];
  resources: string[];
  status: "pending" | "approved" | "denied" | "used";
  /** Who approved or denied it, with their sign-in. */
  userId: string | null;
  authTime: number | null;
  aal: number | null;
  amr: string[] | null;
  /** The polling interval (seconds) the device must keep, raised by each `slow_down`. */
  interval: number;
  lastPolledAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

/** A key that signs access and ID tokens: the private part sealed with the app's secret. */
export interface OAuthSigningKey {
  kid: string;
  alg: "ES256";
  /** The public JWK, published at `jwks`. */
  publicJwk: ClientJwk;
  /** The private JWK, sealed (encrypted) with the app's secret. */
  sealedPrivateJwk: string;
  createdAt: Date;
  /** When it stops signing: after this, a newer key signs, and this one is only published. */
  retiresAt: Date;
  /** When it is no longer published (every token it signed has expired). */
  expiresAt: Date;
}

/**
 * The adapter methods the authorization server needs. An adapter without them is refused at `createAuth`
 * (`MissingAdapterMethods`). The three compare-and-set methods must be atomic: they are how two instances
 * agree that a code, a refresh generation or a device code was used once.
 */
export interface AuthorizationServerAdapterMethods {
  /** Stores a client (registered, or from its metadata document); throws when its id is taken. */
  createOAuthClient?(client: OAuthClient): Awaitable<OAuthClient>;
  /** The stored client with this id, or `null`. */
  getOAuthClient?(clientId: string): Awaitable<OAuthClient | null>;
  /** Replaces a stored client (a refreshed metadata document); throws when there is none with its id. */
  updateOAuthClient?(client: OAuthClient): Awaitable<OAuthClient>;
  /** The user's consent to the client, or `null`. */
  getOAuthConsent?(userId: string, clientId: string): Awaitable<OAuthConsent | null>;
  /** Stores (or replaces) the user's consent to the client. */
  saveOAuthConsent?(consent: OAuthConsent): Awaitable<void>;
  /** Forgets the user's consent to the client. */
  deleteOAuthConsent?(userId: string, clientId: string): Awaitable<void>;
  /** Stores a new code; throws when its hash is taken. */
  createOAuthAuthorizationCode?(code: OAuthAuthorizationCode): Awaitable<void>;
  /** The code with this hash, used or not, or `null`. */
  getOAuthAuthorizationCode?(codeHash: string): Awaitable<OAuthAuthorizationCode | null>;
  /**
   * Marks the code used with the grant it made, only if it was unused: `true` when this call marked it,
   * `false` when it was used already or there is no such code (atomic). Expiry is the caller's check.
   */
  useOAuthAuthorizationCode?(codeHash: string, usedAt: Date, grantId: string): Awaitable<boolean>;
  /** Stores a new grant; throws when its id is taken. */
  createOAuthGrant?(grant: OAuthGrant): Awaitable<OAuthGrant>;
  /** The grant with this id, revoked or not, or `null`. */
  getOAuthGrant?(id: string): Awaitable<OAuthGrant | null>;
  /** The user's grants, revoked or not, oldest first. */
  listOAuthGrantsByUser?(userId: string): Awaitable<OAuthGrant[]>;
  /**
   * Moves the grant from `generation` to the next one, with the time of use, only if it is unrevoked and at
   * `generation`: `true` when this call moved it (atomic). It sets `lastUsedAt` only; `expiresAt` is the
   * caller's to extend (`createOAuthGrant` of a new grant, or not at all).
   */
  advanceOAuthGrant?(id: string, generation: number, usedAt: Date): Awaitable<boolean>;
  /**
   * Marks the grant revoked (kept, so a reuse of its tokens is still recognised, until it is pruned). A grant
   * revoked already keeps its first `revokedAt` (the time pruning counts from).
   */
  revokeOAuthGrant?(id: string, revokedAt: Date): Awaitable<void>;
  /** Marks every unrevoked grant of the user revoked (sign-out everywhere, a password reset); revoked ones keep their `revokedAt`. */
  revokeOAuthGrantsByUser?(userId: string, revokedAt: Date): Awaitable<void>;
  /** Stores a new device authorization; throws when its device code hash is taken. */
  createOAuthDeviceCode?(code: OAuthDeviceCode): Awaitable<void>;
  /** The device authorization with this device code hash, expired or not, or `null`. */
  getOAuthDeviceCode?(deviceCodeHash: string): Awaitable<OAuthDeviceCode | null>;
  /**
   * The device code with this user code that has not expired, or `null` (the newest, should two live ones
   * share a user code: the caller draws user codes at random, the store does not refuse a repeat).
   */
  getOAuthDeviceCodeByUserCode?(userCode: string): Awaitable<OAuthDeviceCode | null>;
  /**
   * Changes the fields given of the device code, only if its status is `expectedStatus` (`approved` → `used`,
   * `pending` → `approved`): `true` when this call changed it, `false` when its status was another or there
   * is no such code (atomic). A field absent from `change` is kept; `null` clears a nullable one.
   */
  updateOAuthDeviceCode?(
    deviceCodeHash: string,
    expectedStatus: OAuthDeviceCode["status"],
    change: Partial<Omit<OAuthDeviceCode, "deviceCodeHash" | "userCode" | "clientId">>,
  ): Awaitable<boolean>;
  /** Every signing key that has not expired, newest (`createdAt`) first. */
  listOAuthSigningKeys?(): Awaitable<OAuthSigningKey[]>;
  /** Stores a new signing key; throws when its `kid` is taken. */
  createOAuthSigningKey?(key: OAuthSigningKey): Awaitable<void>;
}

/** A scope the app's resources understand, shown on the consent page. */
export interface ScopeDeclaration {
  /** What it gives, in the user's words ("Read your projects"). */
  description: string;
  /** A sensitive scope needs a recent sign-in at level 2 (two factors) before its consent (the step-up). */
  sensitive?: boolean;
}

/** A client declared in the configuration (`authorizationServer.clients`). */
export interface ConfiguredClient {
  clientId: string;
  /** Its secret (a confidential client with `client_secret_basic`/`_post`); absent for a public client. */
  clientSecret?: string;
  name: string;
  redirectUris: string[];
  /** Default: `["authorization_code", "refresh_token"]`. */
  grantTypes?: OAuthGrantType[];
  /** Default: `client_secret_basic` with a secret, `private_key_jwt` with `jwks`, else `none`. */
  tokenEndpointAuthMethod?: ClientAuthMethod;
  scopes?: string[];
  jwks?: ClientJwk[];
  clientUri?: string;
  logoUri?: string;
}

/** Who may register a client (RFC 7591). */
export interface RegistrationConfig {
  /**
   * Decides each registration from its (checked) metadata: `true` admits it. Default: admit public clients
   * with loopback or https redirect URIs (what MCP clients register).
   */
  admit?: (client: OAuthClient, request: Request) => Awaitable<boolean>;
}

/** Fetching a client's metadata document, for a client id that is an https URL (the MCP scheme). */
export interface ClientMetadataDocumentsConfig {
  /** Allow loopback and private addresses (development only). Default `false`. */
  allowPrivateAddresses?: boolean;
  /** Give up after this many milliseconds. Default 5000. */
  timeout?: number;
  /** The largest document, in bytes. Default 5120. */
  maxBytes?: number;
  /** How long (seconds) a fetched document is used before it is fetched again. Default 3600. */
  cacheFor?: number;
}

/** The `authorizationServer` option: authlib issues tokens to other clients (docs/authorization-server.md). */
export interface AuthorizationServerConfig {
  /** The issuer. Default: the app's canonical URL plus `basePath`. */
  issuer?: string;
  /** The scopes the app's resources understand, beyond `openid`, `profile`, `email` and `offline_access`. */
  scopes?: Record<string, ScopeDeclaration>;
  /**
   * The resources (RFC 8707 audiences) tokens may be issued for. A request naming another is refused
   * (`invalid_target`); one naming none gets a token for the first. Default: the issuer.
   */
  resources?: string[];
  /** Clients declared here (they take precedence over stored ones with the same id). */
  clients?: ConfiguredClient[];
  /** Dynamic Client Registration (RFC 7591): off unless set. */
  registration?: RegistrationConfig | boolean;
  /** Client ID Metadata Documents: off unless set. */
  clientMetadataDocuments?: ClientMetadataDocumentsConfig | boolean;
  /** Access-token lifetime, in seconds. Default 600. */
  accessTokenMaxAge?: number;
  /** Refresh-token lifetime (from its grant's last use), in seconds. Default 30 days. */
  refreshTokenMaxAge?: number;
  /** How long a signing key signs before a new one does, in seconds. Default 30 days. */
  keyRotation?: number;
  /** Device codes: their lifetime and polling interval, in seconds. Defaults 600 and 5. */
  deviceCode?: { maxAge?: number; interval?: number };
}
