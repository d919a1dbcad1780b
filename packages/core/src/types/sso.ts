/**
 * The types of enterprise SSO (`sso` in the configuration, docs/sso.md): SAML 2.0 and OIDC connections that
 * belong to one organization, domain discovery, and SCIM provisioning.
 *
 * @module types/sso
 */
import type { Awaitable } from "./base.js";

/** The `sso` option: enterprise SSO per organization (needs `organizations`). */
export interface SsoConfig {
  /**
   * How far (in seconds) a SAML assertion's `NotBefore`/`NotOnOrAfter` may be off this server's clock, for
   * identity providers whose clocks drift. Default 60; at most 300.
   */
  clockSkew?: number;
  /** SCIM 2.0 provisioning of each organization's directory (`<basePath>/scim/v2/…`); on with `sso`. */
  scim?: ScimConfig;
  /** Fetching an identity provider's metadata from the URL a SAML connection gives (`saml.metadataUrl`). */
  metadataUrls?: SsoMetadataUrlsConfig;
}

/**
 * The `sso.metadataUrls` option: how the IdP metadata URL of a SAML connection is fetched (https only,
 * public addresses only, no redirect, at most 256 KiB). The URL is an admin's input that the server fetches:
 * the same SSRF-safe fetch as the authorization server's client metadata documents.
 */
export interface SsoMetadataUrlsConfig {
  /** Allow loopback and private addresses: an identity provider on the local network (development only). Default `false`. */
  allowPrivateAddresses?: boolean;
  /** Give up after this many milliseconds, resolution included. Default 5000; at most 30000. */
  timeout?: number;
  /** A certificate authority (PEM) to trust besides the system's: an IdP with a private CA (internal deployments, tests). */
  ca?: string;
}

/** The `sso.scim` option. */
export interface ScimConfig {
  /** The most resources one list answers (`count` is cut to it; RFC 7644 §3.4.2.4). Default 100, at most 1000. */
  maxResults?: number;
}

/** The protocol a connection speaks with the customer's identity provider. */
export type SsoProtocol = "saml" | "oidc";

/**
 * Which attribute (SAML) or claim (OIDC) of the identity provider's answer holds the user's address, name
 * and groups. Defaults: `email`, `name`, `groups`.
 */
export interface SsoAttributeMapping {
  email?: string;
  name?: string;
  groups?: string;
}

/** Which element of a SAML response the identity provider's signature must cover. */
export type SamlSignatureOn = "assertion" | "response" | "both";

/** A SAML connection's settings as stored: the service provider's private key only encrypted (`secrets.ts`). */
export interface SsoSamlSettings {
  /** The identity provider's entity id (the `Issuer` its responses carry). */
  idpEntityId: string;
  /** Where the browser is sent with the `AuthnRequest` (HTTP-Redirect binding). */
  idpSsoUrl: string;
  /** The identity provider's signing certificates (PEM or base64 DER); two during a rotation. */
  idpCertificates: string[];
  signatureOn: SamlSignatureOn;
  /** Accept responses nobody asked for (IdP-initiated). Off by default: they cannot be bound to a browser. */
  allowIdpInitiated: boolean;
  /** The service provider's signing key (PKCS#8 PEM), encrypted with a key derived from the instance's secret. */
  spPrivateKey: string;
  /** The service provider's certificate (PEM), published in its metadata. */
  spCertificate: string;
  /**
   * Where the IdP's metadata was fetched from, when the connection was given it by URL. It is fetched only
   * then: `updateSsoConnection` with the same `saml.metadataUrl` fetches it again (after the IdP rotated its
   * certificate); giving the three fields or pasted metadata instead drops it.
   */
  metadataUrl?: string;
}

/** An OIDC connection's settings as stored: the client secret only encrypted (`secrets.ts`). */
export interface SsoOidcSettings {
  /** The identity provider's issuer (https; discovery at `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** The client secret, encrypted with a key derived from the instance's secret. */
  clientSecret: string;
}

/**
 * A connection between one organization and its identity provider, stored as data (`createSsoConnection`).
 * `ssoRequired` applies to addresses at the organization's proven domains: every other sign-in method is
 * refused for them.
 */
export interface SsoConnection {
  id: string;
  organizationId: string;
  protocol: SsoProtocol;
  /** What the organization's admins call it ("Okta", "Entra ID"). */
  name: string;
  /** The role a user created by a first sign-in gets (unless a group maps to another). */
  defaultRole: string;
  attributeMapping: SsoAttributeMapping;
  /** Roles by group name: a first sign-in whose groups include one gets its role. */
  groupRoles?: Record<string, string>;
  ssoRequired: boolean;
  saml?: SsoSamlSettings;
  oidc?: SsoOidcSettings;
  createdAt: Date;
  updatedAt: Date;
}

/** A connection as `listSsoConnections` shows it: never a secret, not even encrypted. */
export interface ListedSsoConnection extends Omit<SsoConnection, "saml" | "oidc"> {
  saml?: Omit<SsoSamlSettings, "spPrivateKey">;
  oidc?: Omit<SsoOidcSettings, "clientSecret">;
}

/**
 * One user's identity at one connection: the connection and the subject its identity provider gives (the
 * SAML `NameID`, the OIDC `sub` of the connection's issuer). Unique per connection and subject: the same
 * subject at another connection is another identity.
 */
export interface SsoIdentity {
  connectionId: string;
  subject: string;
  userId: string;
  createdAt: Date;
}

/**
 * The adapter methods enterprise SSO needs (`sso` in the configuration). An adapter without them is refused
 * at `createAuth` (`MissingAdapterMethods`). Deleting a connection deletes its identities.
 */
export interface SsoAdapterMethods {
  /** Stores a new connection (its id given); throws when the id is taken. */
  createSsoConnection?(connection: SsoConnection): Awaitable<SsoConnection>;
  /** The connection with this id, or `null`. */
  getSsoConnection?(id: string): Awaitable<SsoConnection | null>;
  /** The connections of one organization, oldest first. */
  listSsoConnections?(organizationId: string): Awaitable<SsoConnection[]>;
  /** Replaces the stored connection `connection.id` (every field), and returns it as stored. */
  updateSsoConnection?(connection: SsoConnection): Awaitable<SsoConnection>;
  /** Deletes the connection and its identities (none: nothing happens). */
  deleteSsoConnection?(id: string): Awaitable<void>;
  /** The identity `subject` at `connectionId`, or `null`. */
  getSsoIdentity?(connectionId: string, subject: string): Awaitable<SsoIdentity | null>;
  /** Stores an identity; a second one for the same connection and subject throws. */
  createSsoIdentity?(identity: SsoIdentity): Awaitable<SsoIdentity>;
}

/** What `createSsoConnection` takes: the settings with the secrets in clear (they are encrypted before they are stored). */
export interface SsoConnectionInput {
  organizationId: string;
  protocol: SsoProtocol;
  name: string;
  defaultRole?: string;
  attributeMapping?: SsoAttributeMapping;
  groupRoles?: Record<string, string>;
  ssoRequired?: boolean;
  saml?: SsoSamlIdpInput & Partial<Pick<SsoSamlSettings, "signatureOn" | "allowIdpInitiated">>;
  oidc?: SsoOidcSettings;
}

/**
 * A SAML connection's identity provider as its admin gives it, one of three ways: its entity id, SSO URL
 * and certificates; its metadata document pasted (`metadataXml`); or the https URL of that document
 * (`metadataUrl`, fetched once, then kept on the connection).
 */
export type SsoSamlIdpInput =
  | Pick<SsoSamlSettings, "idpEntityId" | "idpSsoUrl" | "idpCertificates">
  | { metadataXml: string }
  | { metadataUrl: string };

/** What `updateSsoConnection` takes: the connection's id and the fields to change (an OIDC secret in clear). */
export interface SsoConnectionChanges extends Partial<Omit<SsoConnectionInput, "organizationId" | "protocol" | "oidc" | "saml">> {
  connectionId: string;
  saml?: Partial<Pick<SsoSamlSettings, "idpEntityId" | "idpSsoUrl" | "idpCertificates" | "signatureOn" | "allowIdpInitiated">> & {
    metadataXml?: string;
    metadataUrl?: string;
  };
  oidc?: Partial<SsoOidcSettings>;
}

/** Where an address signs in (`ssoDiscover`): at a connection of the organization that proved its domain, or the normal way. */
export type SsoDiscovery = { sso: true; connectionId: string; signInUrl: string } | { sso: false };
