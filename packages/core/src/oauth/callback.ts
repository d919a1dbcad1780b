/**
 * The provider's callback: validate the response, run the checks, exchange the code, load the profile.
 *
 * @module oauth/callback
 */
import * as oauth from "oauth4webapi";
import { inSpan, providerAttributes } from "../telemetry/index.js";
import type { Profile } from "../types/config.js";
import type { OAuthConfig } from "../types/providers.js";
import { type CheckBinding, type CheckName, checkBinding, clearCheckCookies, flowIsLink, openCheck, resolveChecks } from "./checks.js";
import { clientAuthentication, clientMetadata } from "./client-auth.js";
import { conformTokenRequestOptions, conformTokenResponse } from "./conform.js";
import type { AuthorizationResult, OAuthContext } from "./context.js";
import { type ResolvedServer, resolveServer } from "./discovery.js";
import { endpointSearchParams } from "./endpoints.js";
import { callbackError } from "./failure.js";
import { type ProviderRequestOptions, requestOptions } from "./http.js";
import { mapProfile, toAccount, toTokenSet } from "./profile.js";
import { proxyForwardUrl, redirectFlow, usesFormPost } from "./redirect-proxy.js";
import { serverForTokenResponse } from "./tenant.js";
import { assertTokenResponse } from "./token-response.js";
import { loadProfile, type ProfileSource } from "./userinfo.js";

/**
 * Completes a sign-in from the provider's callback parameters (the query of a GET, the body of a
 * `form_post` POST).
 *
 * On the redirect proxy, a callback whose sealed state names another deployment resolves to
 * `{ kind: "proxy-redirect", url }` without any other processing. Otherwise, in this order:
 * 1. the state cookie (if the state check is on) and the authorization response (`iss` per RFC 9207,
 *    `state`, `error`) are validated by oauth4webapi;
 * 2. the PKCE verifier and nonce cookies are opened;
 * 3. the code is exchanged at the token endpoint with the provider's client authentication (every
 *    provider request reads at most `maxResponseBytes`, see `oauth/bounded-fetch.ts`), and the response
 *    is validated. oauth4webapi checks: `access_token` and `token_type` present; for an ID token (required
 *    for `oidc`) `iss` = the issuer, `aud` contains the client id, `exp` not past and `nbf` not future
 *    (30 s tolerance), `iat` and `sub` present, `nonce` = the sealed one (or absent when none was sent),
 *    and `azp` = the client id when there are several audiences. `oauth/token-response.ts` adds: `azp`,
 *    when present, = the client id; `iat` at most 30 s in the future; `token_type` is `bearer`. As OIDC
 *    Core §3.1.3.7 allows, the ID token's signature is not checked: it came straight from the token
 *    endpoint over TLS;
 * 4. the profile is loaded and mapped with `provider.profile()`.
 *
 * Failures: a missing, tampered, expired or foreign check cookie is `InvalidCheck`; a provider error
 * (`?error=`), a state or issuer mismatch, a missing check parameter, a rejected code, a token endpoint
 * answering an error or something that is not JSON, an ID token for another audience or with another
 * nonce are `OAuthCallbackError` (`cause.err` is oauth4webapi's error, secrets removed); an `azp` or
 * `iat` refused by authlib is `InvalidIdTokenClaim`, a non-bearer token `UnsupportedTokenType`, a
 * response over the size limit `ProviderResponseTooLarge` (all three are `OAuthCallbackError`s); a
 * throwing `profile()` is `OAuthProfileParseError`.
 */
export async function finishAuthorization(ctx: OAuthContext, params: URLSearchParams): Promise<AuthorizationResult> {
  const { provider } = ctx;
  const flow = redirectFlow(ctx);
  if (flow.onProxy) {
    const forward = await proxyForwardUrl(ctx, params);
    if (forward !== undefined) {
      ctx.logger.debug("oauth: forwarding callback from the redirect proxy", { provider: provider.id, to: new URL(forward).origin });
      return { kind: "proxy-redirect", url: forward };
    }
  }

  const server = await resolveServer(provider, "token");
  const checks = resolveChecks(provider, flow.usesProxy, server.as, ctx.logger, ctx.warned);
  const binding = checkBinding(provider, flow.redirectUri);
  const client = clientMetadata(provider);
  const options = await conformTokenRequestOptions(
    { ...requestOptions(server.allowInsecure, server.maxResponseBytes), additionalParameters: endpointSearchParams(provider.token) },
    provider.requestQuirks,
  );

  const validated = await validateCallbackParams(ctx, server, client, params, checks, binding);
  const codeVerifier = checks.has("pkce") ? await openCheck(ctx, "pkce", binding) : oauth.nopkce;
  const expectedNonce = checks.has("nonce") ? await openCheck(ctx, "nonce", binding) : oauth.expectNoNonce;
  const clientAuth = clientAuthentication(provider);
  const grant: CodeGrant = { clientAuth, validated, redirectUri: flow.redirectUri, codeVerifier, expectedNonce, options };
  const { tokenServer, response } = await inSpan("authlib.oauth.token", providerAttributes(provider), () =>
    exchangeCode(provider, server, client, grant),
  );

  const tokens = toTokenSet(response);
  const profile = await loadProviderProfile(ctx, { server: tokenServer, client, response, tokens, params });
  const user = await mapProfile(provider, profile, tokens);
  const account = toAccount(provider, tokens, user.id);
  const crossSite = usesFormPost(provider) ? ({ sameSite: "none", secure: true } as const) : {};

  ctx.logger.debug("oauth: signed in", { provider: provider.id, checks: [...checks] });
  return { kind: "signed-in", profile, user, account, cookies: clearCheckCookies(ctx, checks, crossSite), link: flowIsLink(ctx) };
}

/**
 * The callback's parameters as oauth4webapi validated them (`iss`, `state`, `error`), against the state
 * cookie when the state check is on.
 */
async function validateCallbackParams(
  ctx: OAuthContext,
  server: ResolvedServer,
  client: oauth.Client,
  params: URLSearchParams,
  checks: ReadonlySet<CheckName>,
  binding: CheckBinding,
): Promise<URLSearchParams> {
  const expectedState = checks.has("state") ? await openCheck(ctx, "state", binding) : oauth.skipStateCheck;
  try {
    return oauth.validateAuthResponse(server.as, client, params, expectedState);
  } catch (error) {
    throw callbackError(ctx.provider.id, error);
  }
}

/** What the token request sends: the validated callback, the opened checks and the request's options. */
interface CodeGrant {
  clientAuth: oauth.ClientAuth;
  validated: URLSearchParams;
  redirectUri: string;
  codeVerifier: string | typeof oauth.nopkce;
  expectedNonce: string | typeof oauth.expectNoNonce;
  options: ProviderRequestOptions;
}

/** The code exchanged at the token endpoint and the answer checked (the token step's span runs this). */
async function exchangeCode(
  provider: OAuthConfig,
  server: ResolvedServer,
  client: oauth.Client,
  grant: CodeGrant,
): Promise<{ tokenServer: ResolvedServer; response: oauth.TokenEndpointResponse }> {
  const { clientAuth, validated, redirectUri, codeVerifier, expectedNonce, options } = grant;
  try {
    const raw = await conformTokenResponse(
      await oauth.authorizationCodeGrantRequest(server.as, client, clientAuth, validated, redirectUri, codeVerifier, options),
      provider.tokenResponseQuirks,
    );
    const tokenServer = await serverForTokenResponse(server, raw);
    const response = await oauth.processAuthorizationCodeResponse(tokenServer.as, client, raw, {
      expectedNonce,
      requireIdToken: provider.type === "oidc",
    });
    assertTokenResponse(provider.id, client, response);
    return { tokenServer, response };
  } catch (error) {
    throw callbackError(provider.id, error);
  }
}

/** The provider's profile (ID token claims and/or userinfo); a failure is the callback's error. */
async function loadProviderProfile(ctx: OAuthContext, source: Omit<ProfileSource, "provider" | "logger">): Promise<Profile> {
  const { provider } = ctx;
  try {
    return await loadProfile({ ...source, provider, logger: ctx.logger });
  } catch (error) {
    throw callbackError(provider.id, error, `Loading the profile from provider "${provider.id}" failed.`);
  }
}
