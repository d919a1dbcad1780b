/**
 * The authorization server's public types, and what it adds to the shared ones by declaration merging:
 * its `auth.api` operations, owner-present operation, audit events and texts.
 *
 * @module features/authorization-server/types
 */
import type { RequestLike } from "../../types/api.js";

/** One grant as its user sees it: which client, which scopes, since when, last used when. */
export interface ListedGrant {
  id: string;
  clientId: string;
  /** The client's name, as the consent page showed it. */
  clientName: string;
  scopes: string[];
  resources: string[];
  createdAt: Date;
  lastUsedAt: Date;
  /** Whether it has a refresh token (it lasts beyond its access tokens). */
  refreshable: boolean;
}

/** The limits on what anonymous callers make the authorization server store (`rateLimit.authorizationServer`). */
export interface AuthorizationServerRateLimits {
  /** Client registrations from one client address per window. Default 20. */
  registrationMax?: number;
  /** Device authorizations started, or user codes typed, from one client address per window. Default 30. */
  deviceMax?: number;
  /** The window, in seconds. Default 3600 (1 hour). */
  windowSeconds?: number;
}

/** The authorization server's operations of `auth.api` (part of `AuthApi`). */
export interface AuthorizationServerApi {
  /** The signed-in user's live grants to other clients, newest use first. Throws `SessionRequired`. */
  listGrants(request: RequestLike): Promise<ListedGrant[]>;
  /**
   * Revokes one of the signed-in user's grants: its refresh tokens at once, its access tokens within the
   * revocation bound (`protectResource` and introspection both see it), and forgets the consent, so the
   * client asks again. Throws `SessionRequired`, `OAuthError` (`invalid_request` for a grant not theirs).
   */
  revokeGrant(request: RequestLike, input: { grantId: string }): Promise<void>;
  /**
   * Whether a grant is revoked (or gone): what `protectResource`'s `revocation` asks, from the store. Server
   * code; wrap it in `revocationWithin` to ask the store at most once per grant per bound.
   */
  isGrantRevoked(grantId: string): Promise<boolean>;
}

/** The authorization server's keys of the catalog (its texts live in `messages/`, one module per language). */
export interface AuthorizationServerMessages {
  "oauth.consent.title": string;
  "oauth.consent.lead": string;
  "oauth.consent.redirect": string;
  "oauth.consent.device": string;
  "oauth.consent.scopes": string;
  "oauth.consent.signedInAs": string;
  "oauth.consent.allow": string;
  "oauth.consent.deny": string;
  "oauth.consent.secondFactor": string;
  "oauth.consent.expired": string;
  "oauth.scope.openid": string;
  "oauth.scope.profile": string;
  "oauth.scope.email": string;
  "oauth.scope.offline_access": string;
  "oauth.device.title": string;
  "oauth.device.lead": string;
  "oauth.device.code": string;
  "oauth.device.continue": string;
  "oauth.device.invalid": string;
  "oauth.device.approved": string;
  "oauth.device.denied": string;
  "oauth.grants.title": string;
  "oauth.grants.none": string;
  "oauth.grants.since": string;
  "oauth.grants.lastUsed": string;
  "oauth.grants.revoke": string;
  "oauth.grants.revoked": string;
  "oauth.grants.notFound": string;
  "mail.change.applicationAuthorized": string;
  "mail.change.applicationRevoked": string;
}

declare module "../../types/api.js" {
  interface AuthApi extends AuthorizationServerApi {}
}

declare module "../../types/rate-limit.js" {
  interface RateLimitConfig {
    /** The authorization server's registrations and device codes (see {@link AuthorizationServerRateLimits}), or `false`. */
    authorizationServer?: AuthorizationServerRateLimits | false;
  }
}

declare module "../../types/i18n.js" {
  interface FeatureMessageTexts extends AuthorizationServerMessages {}
}

declare module "../../types/operation.js" {
  interface OwnerOperations {
    authorizeApplication: true;
    revokeApplication: true;
  }
}

declare module "../../types/telemetry.js" {
  interface AuditEventTypes {
    oauthAuthorized: true;
    oauthTokenIssued: true;
    oauthRefreshReused: true;
    oauthCodeReplayed: true;
    oauthGrantRevoked: true;
    oauthClientRegistered: true;
    oauthRefused: true;
  }
}
