/**
 * Refreshing an access token with the refresh token (for providers with `refreshAccessToken: true`).
 *
 * @module oauth/refresh
 */
import * as oauth from "oauth4webapi";
import { inSpan, providerAttributes } from "../telemetry/index.js";
import type { OAuthConfig, TokenSet } from "../types/providers.js";
import { clientAuthentication, clientMetadata } from "./client-auth.js";
import { conformTokenRequestOptions, conformTokenResponse } from "./conform.js";
import { resolveServer } from "./discovery.js";
import { endpointSearchParams } from "./endpoints.js";
import { callbackError } from "./failure.js";
import { requestOptions } from "./http.js";
import { toTokenSet } from "./profile.js";
import { serverForTokenResponse } from "./tenant.js";
import { assertTokenResponse } from "./token-response.js";

/**
 * Exchanges `refreshToken` for new tokens at the provider's token endpoint, with the provider's client
 * authentication; a returned ID token is validated by oauth4webapi, and the response by
 * `assertTokenResponse` (bearer tokens only, `azp` and `iat` as at sign-in). The result has `expires_at`, and
 * `refresh_token` is the rotated one when the provider returned a new one, else `refreshToken` (which
 * stays valid at providers that do not rotate).
 *
 * Throws `OAuthCallbackError` when the provider rejects the refresh token (`cause.error` is e.g.
 * `invalid_grant`: the user must sign in again) or answers something invalid, and `InvalidEndpoints` /
 * `InvalidProvider` for a provider that is not configured for it.
 */
export function refreshAccessToken(provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
  return inSpan("authlib.oauth.refresh", providerAttributes(provider), () => refreshGrant(provider, refreshToken));
}

async function refreshGrant(provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
  const server = await resolveServer(provider, "token");
  const client = clientMetadata(provider);
  const clientAuth = clientAuthentication(provider);
  const options = await conformTokenRequestOptions(
    { ...requestOptions(server.allowInsecure, server.maxResponseBytes), additionalParameters: endpointSearchParams(provider.token) },
    provider.requestQuirks,
  );
  try {
    const response = await conformTokenResponse(
      await oauth.refreshTokenGrantRequest(server.as, client, clientAuth, refreshToken, options),
      provider.tokenResponseQuirks,
    );
    const tokenServer = await serverForTokenResponse(server, response);
    const result = await oauth.processRefreshTokenResponse(tokenServer.as, client, response);
    // The same rules as at sign-in: a refreshed DPoP-bound token is no Bearer token either.
    assertTokenResponse(provider.id, client, result);
    const tokens = toTokenSet(result);
    tokens.refresh_token = result.refresh_token ?? refreshToken;
    return tokens;
  } catch (error) {
    throw callbackError(provider.id, error, `Refreshing the access token of provider "${provider.id}" failed.`);
  }
}
