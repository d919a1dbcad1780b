/**
 * Access-token refresh for providers with `refreshAccessToken: true`: what users of the reference library
 * hand-write in their `jwt` callback. With JWT sessions the provider's tokens ride in the encrypted
 * session token under {@link OAUTH_CLAIM} (never in the session the client sees); with database sessions
 * they stay in the account row. When an access token is within a minute of expiry, the session check
 * refreshes it (rotating the refresh token if the provider does); when that fails, the session carries
 * `error: "RefreshTokenError"` so the app can ask the user to sign in again.
 */
import type { InternalOptions } from "../internal-types.js";
import type { JWT } from "../jwt.js";
import { refreshAccessToken } from "../oauth/index.js";
import type { OAuthConfig } from "../providers/types.js";
import type { Account } from "../types.js";

/** The claim of the session token that holds the provider's tokens. */
export const OAUTH_CLAIM = "oauth";
/** Refresh this many seconds before the access token expires. */
const REFRESH_MARGIN = 60;

/** Provider tokens kept in a session token. */
export interface StoredOAuthTokens {
  provider: string;
  access_token: string;
  refresh_token: string;
  expires_at?: number;
}

/** True when the access token expiring at `expiresAt` (seconds) should be refreshed now. */
function isDue(expiresAt: number | undefined): expiresAt is number {
  return typeof expiresAt === "number" && expiresAt - REFRESH_MARGIN <= Math.floor(Date.now() / 1000);
}

/** True when some provider refreshes access tokens (so sessions must look at the tokens). */
export function anyProviderRefreshes(options: InternalOptions): boolean {
  return options.providers.some((p) => (p.type === "oauth" || p.type === "oidc") && p.refreshAccessToken);
}

function refreshingProvider(options: InternalOptions, id: string): OAuthConfig | undefined {
  const provider = options.providers.find((p) => p.id === id);
  return provider && (provider.type === "oauth" || provider.type === "oidc") && provider.refreshAccessToken ? provider : undefined;
}

/** The token with the provider's tokens attached, when the provider refreshes and gave a refresh token. */
export function attachOAuthTokens(options: InternalOptions, token: JWT, account: Account | null | undefined): JWT {
  if (!account?.refresh_token || !account.access_token || !refreshingProvider(options, account.provider)) return token;
  const stored: StoredOAuthTokens = {
    provider: account.provider,
    access_token: account.access_token,
    refresh_token: account.refresh_token,
    expires_at: account.expires_at,
  };
  return { ...token, [OAUTH_CLAIM]: stored };
}

/**
 * Refreshes the provider's access token when it is about to expire. Returns the token to continue with
 * (unchanged when nothing was due); a failed refresh drops the stored tokens and sets
 * `error: "RefreshTokenError"`.
 */
export async function refreshIfDue(options: InternalOptions, token: JWT): Promise<JWT> {
  const stored = token[OAUTH_CLAIM] as StoredOAuthTokens | undefined;
  if (!stored?.refresh_token || !isDue(stored.expires_at)) return token;
  const provider = refreshingProvider(options, stored.provider);
  if (!provider) return token;
  try {
    const fresh = await refreshAccessToken(provider, stored.refresh_token);
    const updated: StoredOAuthTokens = {
      provider: stored.provider,
      access_token: fresh.access_token ?? stored.access_token,
      refresh_token: fresh.refresh_token ?? stored.refresh_token,
      expires_at: fresh.expires_at,
    };
    const { error: _error, ...rest } = token;
    return { ...rest, [OAUTH_CLAIM]: updated };
  } catch (error) {
    options.logger.error(error as Error);
    const { [OAUTH_CLAIM]: _dropped, ...rest } = token;
    return { ...rest, error: "RefreshTokenError" };
  }
}

/**
 * Database sessions: refreshes every due access token of the user's accounts and stores the new tokens in
 * the account rows. Resolves `false` when a refresh failed (the session then carries the error).
 */
export async function refreshAccountsIfDue(options: InternalOptions, userId: string): Promise<boolean> {
  const adapter = options.adapter;
  if (!adapter?.listAccountsByUserId || !adapter.updateAccount || !anyProviderRefreshes(options)) return true;
  let ok = true;
  for (const account of await adapter.listAccountsByUserId(userId)) {
    const provider = refreshingProvider(options, account.provider);
    if (!provider || !account.refresh_token || !isDue(account.expires_at)) continue;
    try {
      const fresh = await refreshAccessToken(provider, account.refresh_token);
      await adapter.updateAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        access_token: fresh.access_token,
        refresh_token: fresh.refresh_token ?? account.refresh_token,
        expires_at: fresh.expires_at,
        ...(fresh.id_token ? { id_token: fresh.id_token } : {}),
      });
    } catch (error) {
      options.logger.error(error as Error);
      ok = false;
    }
  }
  return ok;
}
