/**
 * Revocation (RFC 7009, `POST oauth2/revoke`) and introspection (RFC 7662, `POST oauth2/introspect`) of a
 * token by a client. Revoking either kind of token revokes its grant, so the refresh family and the access
 * tokens go together; a client may revoke only its own tokens, and anything else is answered 200 all the
 * same (RFC 7009 §2.2: the answer tells nothing). Introspection is for confidential clients, and says
 * `active: false` for a token of another client (but to a client of the configuration: a resource server).
 *
 * @module features/authorization-server/revocation
 */
import type { OAuthClient, OAuthGrant } from "../../types/authorization-server.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { authenticateClient } from "./clients.js";
import { isLive, revokeGrant } from "./grants.js";
import { OAuthError } from "./oauth-error.js";
import { oauthJson, single } from "./respond.js";
import { storeOf } from "./store.js";
import { parseRefreshToken, readAccessToken, refreshTokenIssued } from "./tokens.js";

/** A token as the server finds it: its grant, its kind, and (for an access token) its claims. */
interface FoundToken {
  grant: OAuthGrant;
  kind: "access_token" | "refresh_token";
  claims?: Record<string, unknown>;
  /** A refresh token of the grant's current generation (an earlier one is dead). */
  current: boolean;
}

/** The grant of a token this server issued (by its form: a refresh token's or a JWT's), or `undefined`. */
export async function findToken(options: InternalOptions, token: string): Promise<FoundToken | undefined> {
  const presented = parseRefreshToken(token);
  if (presented) {
    const grant = await storeOf(options).getOAuthGrant(presented.grantId);
    if (!grant || !(await refreshTokenIssued(options, grant, presented))) return undefined;
    return { grant, kind: "refresh_token", current: presented.generation === grant.generation };
  }
  const claims = await readAccessToken(options, token);
  if (!claims) return undefined;
  const grant = await storeOf(options).getOAuthGrant(claims.grant_id as string);
  return grant ? { grant, kind: "access_token", claims, current: true } : undefined;
}

/** The handler of `POST oauth2/revoke`. */
export async function revoke(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const client = await authenticateClient(options, request);
  const token = single(request.body, "token");
  if (token === undefined) throw new OAuthError("invalid_request", "The token is missing.");
  const found = await findToken(options, token);
  if (found && found.grant.clientId === client.clientId && found.grant.revokedAt === null) {
    request.auditUserId = found.grant.userId;
    await revokeGrant(options, request, found.grant, "revoked");
  }
  return oauthJson({});
}

/** The handler of `POST oauth2/introspect`. */
export async function introspect(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const client = await authenticateClient(options, request);
  if (client.tokenEndpointAuthMethod === "none") throw new OAuthError("invalid_client", "Introspection is for confidential clients.", 401);
  const token = single(request.body, "token");
  if (token === undefined) throw new OAuthError("invalid_request", "The token is missing.");
  const found = await findToken(options, token);
  if (!found?.current || !isLive(options, found.grant) || !mayIntrospect(client, found)) return oauthJson({ active: false });
  const { grant, claims } = found;
  if (found.kind === "refresh_token")
    return oauthJson({
      active: true,
      token_type: "refresh_token",
      client_id: grant.clientId,
      sub: grant.userId,
      scope: grant.scopes.join(" "),
      exp: grant.expiresAt === null ? undefined : Math.floor(grant.expiresAt.getTime() / 1000),
    });
  return oauthJson({ active: true, token_type: "Bearer", ...claims });
}

/**
 * A client introspects its own tokens; a client of the configuration (the operator's own: a resource
 * server checking the tokens it is shown) introspects any access token.
 */
function mayIntrospect(client: OAuthClient, found: FoundToken): boolean {
  return found.grant.clientId === client.clientId || (client.source === "config" && found.kind === "access_token");
}
