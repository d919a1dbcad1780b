/**
 * The OAuth 2 / OpenID Connect protocol layer the request engine calls: the authorization request
 * ({@link startAuthorization}), the callback ({@link finishAuthorization}) and token refresh
 * ({@link refreshAccessToken}). Every protocol step (discovery, PKCE, state, nonce, code exchange,
 * ID token and userinfo validation) is oauth4webapi's.
 *
 * @module oauth
 */
export { DEFAULT_OIDC_SCOPE, startAuthorization } from "./authorization.js";
export { finishAuthorization } from "./callback.js";
export type { CheckBinding, CheckName } from "./checks.js";
export type { AuthorizationResult, AuthorizationStart, OAuthContext, ProxyRedirect, SignedIn } from "./context.js";
export { clearDiscoveryCache } from "./discovery.js";
export { defaultAccount, defaultProfile, storedAccount } from "./profile.js";
export { refreshAccessToken } from "./refresh.js";
