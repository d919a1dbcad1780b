/**
 * Authorization codes: 256 random bits, stored by their SHA-256 only, single use, 60 seconds, bound to the
 * client, the redirect URI, the PKCE challenge, the resources and the sign-in that approved them. The
 * redirect carries the code, `state` and `iss` (RFC 9207: a client talking to several servers can tell
 * which one answered, against mix-up).
 *
 * @module features/authorization-server/codes
 */
import { recordAuditEvent } from "../../audit/index.js";
import { randomHex, sha256Hex } from "../../crypto/digest.js";
import type { OAuthClient } from "../../types/authorization-server.js";
import type { SessionAssurance } from "../../types/base.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import type { AuthorizationRequest } from "./authorization-request.js";
import { issuerOf, settingsOf } from "./settings.js";
import { storeOf } from "./store.js";

/** The signed-in caller with a known assurance. */
export interface SignedIn {
  userId: string;
  assurance: SessionAssurance;
}

/** Stores a new code for the approved `authorization`; answers the redirect that carries it back to the client. */
export async function issueCode(
  options: InternalOptions,
  request: RequestInternal,
  authorization: AuthorizationRequest,
  caller: SignedIn,
  client: OAuthClient,
): Promise<string> {
  const code = randomHex(32);
  await storeOf(options).createOAuthAuthorizationCode({
    codeHash: await sha256Hex(code),
    clientId: client.clientId,
    userId: caller.userId,
    redirectUri: authorization.redirectUri,
    scopes: authorization.scopes,
    resources: authorization.resources,
    codeChallenge: authorization.codeChallenge,
    nonce: authorization.nonce,
    authTime: caller.assurance.authTime,
    aal: caller.assurance.aal,
    amr: caller.assurance.amr,
    expiresAt: new Date(Date.now() + settingsOf(options).codeMaxAge * 1000),
    usedAt: null,
    grantId: null,
  });
  recordAuditEvent(options, request, {
    type: "oauthAuthorized",
    userId: caller.userId,
    provider: null,
    detail: `client=${client.clientId} scope=${authorization.scopes.join(",")}`,
  });
  const url = new URL(authorization.redirectUri);
  url.searchParams.set("code", code);
  if (authorization.state !== null) url.searchParams.set("state", authorization.state);
  url.searchParams.set("iss", issuerOf(options));
  return url.href;
}
