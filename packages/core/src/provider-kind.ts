/**
 * Provider kinds. OAuth 2 and OpenID Connect providers share every route and most of the protocol; the
 * guard keeps the `type === "oauth" || type === "oidc"` test in one place.
 *
 * @module provider-kind
 */
import type { OAuthConfig, PasswordConfig, ProviderConfig } from "./types/providers.js";

/** True for an OAuth 2 or OpenID Connect provider. */
export function isOAuthProvider<P extends Pick<ProviderConfig, "type">>(provider: P | undefined): provider is P & OAuthConfig {
  return provider?.type === "oauth" || provider?.type === "oidc";
}

/** True for an OAuth/OIDC provider that refreshes access tokens (`refreshAccessToken: true`). */
export function isRefreshingProvider<P extends Pick<ProviderConfig, "type">>(provider: P | undefined): provider is P & OAuthConfig {
  return isOAuthProvider(provider) && provider.refreshAccessToken === true;
}

/** True for the `Password()` provider (a credentials provider whose accounts authlib keeps). */
export function isPasswordProvider<P extends Pick<ProviderConfig, "type">>(provider: P | undefined): provider is P & PasswordConfig {
  return provider?.type === "credentials" && typeof (provider as Partial<PasswordConfig>).passwordAccounts === "object";
}
