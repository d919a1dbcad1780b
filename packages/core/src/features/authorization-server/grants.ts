/**
 * Grants: what one authorization (a code exchanged, a device approved) gave one client for one user. A
 * grant holds the refresh-token family; its access tokens name it (`grant_id`), so revoking it ends both:
 * its refresh tokens at once, its access tokens wherever their revocation is checked (within the bound).
 * Every issuance and revocation is an audit row and an attribute of the request's span.
 *
 * @module features/authorization-server/grants
 */
import { recordAuditEvent } from "../../audit/index.js";
import { randomHex } from "../../crypto/digest.js";
import type { OAuthClient, OAuthGrant } from "../../types/authorization-server.js";
import type { ConfigOptions, InternalOptions, RequestInternal } from "../../types/internal.js";
import { userClaims } from "./claims.js";
import { settingsOf } from "./settings.js";
import { storeOf } from "./store.js";
import { accessToken, idToken, refreshToken } from "./tokens.js";

/** Who approved, and how they had signed in. */
export interface Approval {
  userId: string;
  authTime: number;
  aal: number;
  amr: string[];
}

/** A new grant of `scopes` for `resources` (refreshable with `offline_access` for a client allowed refresh tokens). */
export function newGrant(
  options: InternalOptions,
  client: OAuthClient,
  approval: Approval,
  scopes: string[],
  resources: string[],
): OAuthGrant {
  const now = new Date();
  const refreshable = scopes.includes("offline_access") && client.grantTypes.includes("refresh_token");
  const { refreshTokenMaxAge } = settingsOf(options);
  return {
    id: randomHex(16),
    userId: approval.userId,
    clientId: client.clientId,
    scopes,
    resources,
    secret: randomHex(32),
    generation: 0,
    refreshable,
    authTime: approval.authTime,
    aal: approval.aal,
    amr: approval.amr,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: refreshable ? new Date(now.getTime() + refreshTokenMaxAge * 1000) : null,
    revokedAt: null,
  };
}

/** The token endpoint's answer for `grant` at `generation`: an access token, and a refresh and an ID token when its scopes give them. */
export async function tokenResponse(
  options: InternalOptions,
  request: RequestInternal,
  grant: OAuthGrant,
  scopes: readonly string[],
  resources: readonly string[],
  nonce: string | null,
  generation: number,
): Promise<Record<string, unknown>> {
  const facts = { userId: grant.userId, clientId: grant.clientId, scopes, resources, grantId: grant.id, authTime: grant.authTime };
  const access = await accessToken(options, facts);
  const body: Record<string, unknown> = {
    access_token: access.token,
    token_type: "Bearer",
    expires_in: access.expiresIn,
    scope: scopes.join(" "),
  };
  if (grant.refreshable) body.refresh_token = await refreshToken(options, grant, generation);
  if (scopes.includes("openid")) {
    const claims = await userClaims(options, grant.userId, scopes);
    body.id_token = await idToken(options, { ...grant, clientId: grant.clientId, nonce, claims });
  }
  request.trace?.span.setAttribute("authlib.oauth.client_id", grant.clientId);
  request.trace?.span.setAttribute("authlib.oauth.grant_id", grant.id);
  recordAuditEvent(options, request, {
    type: "oauthTokenIssued",
    userId: grant.userId,
    provider: null,
    detail: `client=${grant.clientId} grant=${grant.id} generation=${generation}`,
  });
  return body;
}

/**
 * Revokes `grantId` (and forgets the user's consent to its client, so the client asks again), with the
 * audit row saying why: `revoked` (by its user or the client), `reuse` (a refresh token used twice),
 * `replay` (a code exchanged twice).
 */
export async function revokeGrant(
  options: Pick<ConfigOptions, "adapter" | "config" | "audit">,
  request: RequestInternal | undefined,
  grant: OAuthGrant,
  reason: "revoked" | "reuse" | "replay",
): Promise<void> {
  await storeOf(options).revokeOAuthGrant(grant.id, new Date());
  await grantRevoked(options, request, grant, reason);
}

/**
 * What follows a revoked grant, whether it was revoked alone ({@link revokeGrant}) or with every grant of
 * its user in one write (`everywhere`: their sessions all ended): its consent forgotten unless a token was
 * misused (the user did consent; the client misbehaved), the span attribute and the audit row.
 */
export async function grantRevoked(
  options: Pick<ConfigOptions, "adapter" | "config" | "audit">,
  request: RequestInternal | undefined,
  grant: OAuthGrant,
  reason: "revoked" | "reuse" | "replay" | "everywhere",
): Promise<void> {
  if (reason !== "reuse" && reason !== "replay") await storeOf(options).deleteOAuthConsent(grant.userId, grant.clientId);
  request?.trace?.span.setAttribute("authlib.oauth.revoked", reason);
  const type = reason === "reuse" ? "oauthRefreshReused" : reason === "replay" ? "oauthCodeReplayed" : "oauthGrantRevoked";
  recordAuditEvent(options, request, {
    type,
    userId: grant.userId,
    provider: null,
    detail: `client=${grant.clientId} grant=${grant.id} reason=${reason}`,
  });
}

/** True while a grant can still be used: unrevoked, and its refresh token (or its last access token) unexpired. */
export function isLive(options: Pick<ConfigOptions, "config">, grant: OAuthGrant, now = Date.now()): boolean {
  if (grant.revokedAt !== null) return false;
  if (grant.expiresAt !== null) return grant.expiresAt.getTime() > now;
  return grant.lastUsedAt.getTime() + settingsOf(options).accessTokenMaxAge * 1000 > now;
}
