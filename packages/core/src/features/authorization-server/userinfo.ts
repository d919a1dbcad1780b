/**
 * `GET`/`POST oauth2/userinfo` (OpenID Connect Core §5.3): the claims an access token's scopes give, for a
 * token of this server with the `openid` scope whose grant is live (read from the store: this endpoint is
 * not a hot path). A refusal is RFC 6750's `WWW-Authenticate: Bearer error="invalid_token"`.
 *
 * @module features/authorization-server/userinfo
 */
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import { userClaims } from "./claims.js";
import { isLive } from "./grants.js";
import { oauthJson } from "./respond.js";
import { storeOf } from "./store.js";
import { readAccessToken } from "./tokens.js";

/** The handler of `GET oauth2/userinfo` (and its POST). */
export async function userinfo(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
  const refused = (error: string, status: number) => oauthJson({ error }, status, { "WWW-Authenticate": `Bearer error="${error}"` });
  if (!match) return { ...oauthJson({}, 401, { "WWW-Authenticate": 'Bearer realm="userinfo"' }) };
  const claims = await readAccessToken(options, match[1] as string);
  const grant = claims && (await storeOf(options).getOAuthGrant(claims.grant_id as string));
  if (!claims || !grant || !isLive(options, grant) || grant.userId !== claims.sub) return refused("invalid_token", 401);
  const scopes = String(claims.scope ?? "").split(" ");
  if (!scopes.includes("openid")) return refused("insufficient_scope", 403);
  return oauthJson({ sub: grant.userId, ...(await userClaims(options, grant.userId, scopes)) });
}
