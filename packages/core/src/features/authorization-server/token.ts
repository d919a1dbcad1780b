/**
 * `POST <basePath>/oauth2/token`: the code, refresh and device grants, for an authenticated client
 * (`clients.ts`). Every check that can fail is made before anything is used up, and every use is a
 * compare-and-set in the store, so two instances agree:
 * - a code is exchanged once: a second exchange revokes the grant the first one made (RFC 6749 §4.1.2);
 * - a refresh token is used once: the grant moves to its next generation, and a token of an earlier
 *   generation (a copy used by someone else, or a race) revokes the whole family;
 * - a device code gives its tokens once, after its approval, to a device that kept the polling interval.
 *
 * @module features/authorization-server/token
 */
import { sha256Hex } from "../../crypto/digest.js";
import type { OAuthClient, OAuthGrant } from "../../types/authorization-server.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { checkedResources, checkedScopes } from "./authorization-request.js";
import { authenticateClient } from "./clients.js";
import { newGrant, revokeGrant, tokenResponse } from "./grants.js";
import { OAuthError } from "./oauth-error.js";
import { verifyPkce } from "./pkce.js";
import { oauthJson, resourcesOf, single } from "./respond.js";
import { storeOf } from "./store.js";
import { parseRefreshToken, refreshTokenIssued } from "./tokens.js";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** The handler of `POST oauth2/token`. */
export async function token(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const grantType = single(request.body, "grant_type");
  const client = await authenticateClient(options, request);
  request.trace?.span.setAttribute("authlib.oauth.grant_type", grantType ?? "");
  if (grantType === "authorization_code") return oauthJson(await exchangeCode(options, request, client));
  if (grantType === "refresh_token") return oauthJson(await refresh(options, request, client));
  if (grantType === DEVICE_GRANT) return oauthJson(await deviceToken(options, request, client));
  throw new OAuthError("unsupported_grant_type", "Supported: authorization_code, refresh_token and the device code grant.");
}

function allowGrant(client: OAuthClient, grantType: OAuthClient["grantTypes"][number]): void {
  if (!client.grantTypes.includes(grantType))
    throw new OAuthError("unauthorized_client", `This client may not use the ${grantType} grant.`);
}

async function exchangeCode(options: InternalOptions, request: RequestInternal, client: OAuthClient): Promise<Record<string, unknown>> {
  allowGrant(client, "authorization_code");
  const code = single(request.body, "code");
  const verifier = single(request.body, "code_verifier");
  const redirectUri = single(request.body, "redirect_uri");
  if (!code) throw new OAuthError("invalid_request", "The code is missing.");
  const store = storeOf(options);
  const codeHash = await sha256Hex(code);
  const stored = await store.getOAuthAuthorizationCode(codeHash);
  const invalid = new OAuthError("invalid_grant", "The code is not valid, was used, or has expired.");
  if (!stored || stored.clientId !== client.clientId) throw invalid;
  if (stored.usedAt !== null) {
    await revokeIssued(options, request, stored.grantId, "replay");
    throw invalid;
  }
  if (stored.expiresAt.getTime() <= Date.now()) throw invalid;
  if (redirectUri !== stored.redirectUri) throw new OAuthError("invalid_grant", "The redirect_uri is not the one the code was issued for.");
  if (!verifier) throw new OAuthError("invalid_request", "PKCE is required: the code_verifier is missing.");
  if (!(await verifyPkce(verifier, stored.codeChallenge)))
    throw new OAuthError("invalid_grant", "The code_verifier does not match the challenge.");
  const resources = resourcesAsked(options, request, stored.resources);
  const approval = { userId: stored.userId, authTime: stored.authTime, aal: stored.aal, amr: stored.amr };
  const grant = newGrant(options, client, approval, stored.scopes, stored.resources);
  await store.createOAuthGrant(grant);
  if (!(await store.useOAuthAuthorizationCode(codeHash, new Date(), grant.id))) {
    // Another exchange won the race: neither keeps what it got.
    await revokeGrant(options, request, grant, "replay");
    const winner = await store.getOAuthAuthorizationCode(codeHash);
    await revokeIssued(options, request, winner?.grantId ?? null, "replay");
    throw invalid;
  }
  return tokenResponse(options, request, grant, grant.scopes, resources, stored.nonce, 0);
}

/** Revokes the grant a used code made (a replay: whoever holds the code now, the tokens it gave go too). */
async function revokeIssued(options: InternalOptions, request: RequestInternal, grantId: string | null, reason: "replay"): Promise<void> {
  const grant = grantId === null ? null : await storeOf(options).getOAuthGrant(grantId);
  if (grant && grant.revokedAt === null) await revokeGrant(options, request, grant, reason);
}

/** The resources a token request narrows to (RFC 8707 §2.2): each one the grant has; none: all of them. */
function resourcesAsked(options: InternalOptions, request: RequestInternal, granted: readonly string[]): string[] {
  const list = resourcesOf(request.body);
  if (list.length === 0) return [...granted];
  checkedResources(options, list, (code, description) => new OAuthError(code, description));
  if (list.some((item) => !granted.includes(item))) throw new OAuthError("invalid_target", "A resource asked for was not granted.");
  return [...new Set(list)];
}

async function refresh(options: InternalOptions, request: RequestInternal, client: OAuthClient): Promise<Record<string, unknown>> {
  allowGrant(client, "refresh_token");
  const presented = parseRefreshToken(single(request.body, "refresh_token") ?? "");
  const invalid = new OAuthError("invalid_grant", "The refresh token is not valid, was revoked, or has expired.");
  if (!presented) throw invalid;
  const store = storeOf(options);
  const grant = await store.getOAuthGrant(presented.grantId);
  if (!grant || grant.clientId !== client.clientId || !grant.refreshable || !(await refreshTokenIssued(options, grant, presented)))
    throw invalid;
  request.auditUserId = grant.userId;
  if (grant.revokedAt !== null) throw invalid;
  if (presented.generation !== grant.generation) {
    await revokeGrant(options, request, grant, "reuse");
    throw invalid;
  }
  if (grant.expiresAt !== null && grant.expiresAt.getTime() <= Date.now()) throw invalid;
  const scopes = narrowedScopes(options, client, request, grant);
  const resources = resourcesAsked(options, request, grant.resources);
  if (!(await store.advanceOAuthGrant(grant.id, grant.generation, new Date()))) {
    // The same token was used at the same moment elsewhere: one of the two is not the client.
    await revokeGrant(options, request, grant, "reuse");
    throw invalid;
  }
  return tokenResponse(options, request, grant, scopes, resources, null, grant.generation + 1);
}

/** The scopes a refresh asks for: the grant's, or fewer (RFC 6749 §6), never more. */
function narrowedScopes(options: InternalOptions, client: OAuthClient, request: RequestInternal, grant: OAuthGrant): string[] {
  const asked = single(request.body, "scope");
  if (asked === undefined) return grant.scopes;
  const scopes = checkedScopes(options, client, asked, (code, description) => new OAuthError(code, description));
  if (scopes.some((scope) => !grant.scopes.includes(scope))) throw new OAuthError("invalid_scope", "A refresh cannot add scopes.");
  return scopes;
}

async function deviceToken(options: InternalOptions, request: RequestInternal, client: OAuthClient): Promise<Record<string, unknown>> {
  allowGrant(client, DEVICE_GRANT);
  const deviceCode = single(request.body, "device_code");
  if (!deviceCode) throw new OAuthError("invalid_request", "The device_code is missing.");
  const store = storeOf(options);
  const hash = await sha256Hex(deviceCode);
  const stored = await store.getOAuthDeviceCode(hash);
  if (!stored || stored.clientId !== client.clientId) throw new OAuthError("invalid_grant", "The device code is not valid.");
  const now = Date.now();
  if (stored.expiresAt.getTime() <= now) throw new OAuthError("expired_token", "The device code has expired: start again.");
  if (stored.status === "denied") throw new OAuthError("access_denied", "The user denied the request.");
  if (stored.status === "used") throw new OAuthError("invalid_grant", "The device code was used already.");
  if (stored.status === "pending") {
    const tooSoon = stored.lastPolledAt !== null && now - stored.lastPolledAt.getTime() < stored.interval * 1000;
    const interval = tooSoon ? stored.interval + 5 : stored.interval;
    await store.updateOAuthDeviceCode(hash, "pending", { lastPolledAt: new Date(now), interval });
    if (tooSoon) throw new OAuthError("slow_down", `Poll at most every ${interval} seconds.`);
    throw new OAuthError("authorization_pending", "The user has not approved the request yet.");
  }
  if (stored.userId === null || stored.authTime === null) throw new OAuthError("invalid_grant", "The device code is not valid.");
  const approval = { userId: stored.userId, authTime: stored.authTime, aal: stored.aal ?? 1, amr: stored.amr ?? [] };
  const grant = newGrant(options, client, approval, stored.scopes, stored.resources);
  if (!(await store.updateOAuthDeviceCode(hash, "approved", { status: "used" })))
    throw new OAuthError("invalid_grant", "The device code was used already.");
  await store.createOAuthGrant(grant);
  return tokenResponse(options, request, grant, grant.scopes, grant.resources, null, 0);
}
