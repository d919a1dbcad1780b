/**
 * The start of an OAuth / OIDC sign-in: the provider's authorization URL and the check cookies.
 *
 * @module oauth/authorization
 */
import * as oauth from "oauth4webapi";
import type { Cookie } from "../http/cookies.js";
import type { CookieOption } from "../types/config.js";
import { checkBinding, resolveChecks, sealCheck } from "./checks.js";
import { clientMetadata } from "./client-auth.js";
import { conformAuthorizationUrl } from "./conform.js";
import type { AuthorizationStart, OAuthContext } from "./context.js";
import { resolveServer } from "./discovery.js";
import { endpointSearchParams } from "./endpoints.js";
import { createStateValue, redirectFlow, usesFormPost } from "./redirect-proxy.js";

/** Scope requested from an OpenID Connect provider that configures none. */
export const DEFAULT_OIDC_SCOPE = "openid profile email";

/**
 * Parameters a sign-in request may not set through `authorizationParams`: they identify the client and
 * carry the checks, so they always come from the configuration and from this module.
 */
const PROTECTED_PARAMS = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "response_mode",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
]);

/**
 * Builds the authorization URL of `ctx.provider` and seals the check cookies.
 *
 * Parameters, later ones winning: the authorization URL's own query, `provider.authorization.params`,
 * then `authorizationParams` (from the sign-in request; it cannot override the protected parameters
 * `client_id`, `redirect_uri`, `response_type`, `response_mode`, `state`, `nonce`, `code_challenge*`,
 * `request*`), then `response_type=code`, `client_id`, `redirect_uri` and the checks. An `oidc` provider
 * without a scope asks for `openid profile email`.
 *
 * Checks: see `resolveChecks` in `oauth/checks.ts` (default `["pkce", "state"]`, plus `"nonce"` for
 * `oidc`; `"state"` is added for a redirect proxy and when the provider does not advertise S256 PKCE).
 * With `response_mode=form_post` the check cookies are `SameSite=None; Secure`, since the provider
 * posts the callback cross-site.
 *
 * Throws `InvalidEndpoints` (no authorization endpoint), `InvalidProvider` (no client id), or the
 * discovery error of oauth4webapi when the issuer cannot be reached.
 */
export async function startAuthorization(ctx: OAuthContext, authorizationParams: Record<string, string>): Promise<AuthorizationStart> {
  const { provider } = ctx;
  const client = clientMetadata(provider);
  const { as } = await resolveServer(provider, "authorization");
  const url = new URL(as.authorization_endpoint as string);
  const params = url.searchParams;

  for (const [key, value] of endpointSearchParams(provider.authorization)) params.set(key, value);
  for (const [key, value] of Object.entries(authorizationParams)) {
    if (!PROTECTED_PARAMS.has(key) && typeof value === "string") params.set(key, value);
  }
  const flow = redirectFlow(ctx);
  params.set("response_type", "code");
  params.set("client_id", client.client_id);
  params.set("redirect_uri", flow.redirectUri);
  if (provider.type === "oidc" && !params.get("scope")) params.set("scope", DEFAULT_OIDC_SCOPE);

  const checks = resolveChecks(provider, flow.usesProxy, as, ctx.logger, ctx.warned);
  const binding = checkBinding(provider, flow.redirectUri);
  const crossSite: CookieOption["options"] = usesFormPost(provider) ? { sameSite: "none", secure: true } : {};
  const cookies: Cookie[] = [];

  if (checks.has("pkce")) {
    const verifier = oauth.generateRandomCodeVerifier();
    params.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    params.set("code_challenge_method", "S256");
    cookies.push(await sealCheck(ctx, "pkce", verifier, binding, crossSite));
  }
  if (checks.has("state")) {
    const state = await createStateValue(ctx, flow);
    params.set("state", state);
    cookies.push(await sealCheck(ctx, "state", state, binding, crossSite));
  }
  if (checks.has("nonce")) {
    const nonce = oauth.generateRandomNonce();
    params.set("nonce", nonce);
    cookies.push(await sealCheck(ctx, "nonce", nonce, binding, crossSite));
  }

  ctx.logger.debug("oauth: authorization request", {
    provider: provider.id,
    endpoint: `${url.origin}${url.pathname}`,
    checks: [...checks],
    redirectProxy: flow.usesProxy,
  });
  return { url: (await conformAuthorizationUrl(url, provider.requestQuirks)).href, cookies };
}
