/**
 * Access-token refresh for providers with `refreshAccessToken: true`: what users of the reference library
 * hand-write in their `jwt` callback. With JWT sessions the provider's tokens ride in the encrypted
 * session token under {@link OAUTH_CLAIM} (never in the session the client sees); with database sessions
 * they stay in the account row. When an access token is within a minute of expiry, the session check
 * refreshes it (rotating the refresh token if the provider does); when that fails, the session carries
 * `error: "RefreshTokenError"` so the app can ask the user to sign in again.
 *
 * Refresh is single-flight. Providers that rotate refresh tokens treat a second use of one as theft and
 * revoke the grant, so parallel session checks must not each spend it:
 * - in one process, concurrent refreshes from the same refresh token (JWT: the same cookie in two tabs
 *   or eight parallel requests) share one request to the provider, and its result is reused for
 *   {@link REUSE_GRACE_MS} by late requests that still carry the old cookie;
 * - with database sessions, the refresh of one account is one promise per process; it re-reads the row
 *   first (another instance may have refreshed meanwhile) and stores the new tokens with the adapter's
 *   `swapAccountTokens` (`… WHERE refresh_token = $old`), so an instance that lost the race keeps the
 *   winner's tokens instead of overwriting them.
 * - across instances, with database sessions and a shared `rateLimit.store` that can lease (PostgreSQL or
 *   Redis), one instance at a time refreshes an account: it takes the lease, re-reads the row and spends
 *   the refresh token only if the row still holds the one it read; the others wait and re-read the row
 *   until the new tokens are there (session/refresh-lease.ts).
 * Without a leasing store (the default memory store, or `rateLimit: false`), two instances can still both
 * call the provider if they read the row within the same instant; the conditional write keeps the row
 * consistent, and the provider decides whether the second use is fatal. Across instances WITHOUT a
 * database (JWT sessions) nothing is shared: two instances that receive the same due cookie at the same
 * moment both spend the refresh token. Route a user's requests to one instance (sticky sessions) or use
 * database sessions and a shared store when the provider rotates refresh tokens.
 */

import type { AccountTokenStore } from "../adapter/capabilities.js";
import { sha256Hex } from "../crypto/digest.js";
import type { JWT } from "../jwt.js";
import { isRefreshingProvider } from "../provider-kind.js";
import type { AdapterAccount } from "../types/adapters.js";
import type { Account } from "../types/config.js";
import type { InternalOptions } from "../types/internal.js";
import type { OAuthConfig, TokenSet } from "../types/providers.js";
import { refreshLeaseStore, underRefreshLease } from "./refresh-lease.js";
import { SingleFlight } from "./single-flight.js";

/** The claim of the session token that holds the provider's tokens. */
export const OAUTH_CLAIM = "oauth";
/** Refresh this many seconds before the access token expires. */
const REFRESH_MARGIN = 60;
/** How long a finished refresh is handed to late requests that still carry the old refresh token. */
export const REUSE_GRACE_MS = 30_000;

/** JWT sessions: refreshes by provider + (hash of the) old refresh token. */
const tokenRefreshes = new SingleFlight<TokenSet>(REUSE_GRACE_MS);
/** Database sessions: refreshes by provider + account; the row is the shared state, so no grace. */
const accountRefreshes = new SingleFlight<void>(0);

/** The provider's refresh grant: the OAuth client loads on the first refresh, not with the session code. */
async function refreshAccessToken(provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
  return (await import("../oauth/index.js")).refreshAccessToken(provider, refreshToken);
}

/** One refresh per provider + refresh token in this process (see the module comment). */
async function sharedRefresh(provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
  const key = await sha256Hex(`${provider.id}\u0000${refreshToken}`);
  return tokenRefreshes.run(key, () => refreshAccessToken(provider, refreshToken));
}

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
  return options.providers.some(isRefreshingProvider);
}

function refreshingProvider(options: InternalOptions, id: string): OAuthConfig | undefined {
  const provider = options.providers.find((p) => p.id === id);
  return isRefreshingProvider(provider) ? provider : undefined;
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
    const fresh = await sharedRefresh(provider, stored.refresh_token);
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
  const store = options.capabilities.accountTokens;
  if (!store || !anyProviderRefreshes(options)) return true;
  let ok = true;
  for (const account of await store.listAccountsByUserId(userId)) {
    const provider = refreshingProvider(options, account.provider);
    if (!provider || !account.refresh_token || !isDue(account.expires_at)) continue;
    try {
      const key = `${account.provider}\u0000${account.providerAccountId}`;
      await accountRefreshes.run(key, () => refreshAccount(options, store, provider, account));
    } catch (error) {
      options.logger.error(error as Error);
      ok = false;
    }
  }
  return ok;
}

/** The account row as it is now (another instance may have refreshed since the list), or `null` when gone. */
async function reread(adapter: AccountTokenStore, listed: AdapterAccount): Promise<AdapterAccount | null> {
  const { provider, providerAccountId } = listed;
  if (adapter.getAccount) return adapter.getAccount(providerAccountId, provider);
  const accounts = await adapter.listAccountsByUserId(listed.userId);
  return accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId) ?? null;
}

/** True when `now` is not the row that was read as `before`: refreshed by someone else, or gone. */
function changedSince(before: AdapterAccount, now: AdapterAccount | null): boolean {
  return !now?.refresh_token || now.refresh_token !== before.refresh_token || now.expires_at !== before.expires_at;
}

/**
 * Refreshes one account row: re-reads it, and when it is still due, spends its refresh token once, under
 * the instances' lease when the shared store has one. The new tokens are written only if the row still
 * holds the spent refresh token.
 */
async function refreshAccount(
  options: InternalOptions,
  adapter: AccountTokenStore,
  provider: OAuthConfig,
  listed: AdapterAccount,
): Promise<void> {
  const account = await reread(adapter, listed);
  if (!account?.refresh_token || !isDue(account.expires_at)) return;
  const leases = refreshLeaseStore(options);
  if (!leases) return spendRefreshToken(adapter, provider, account);
  const key = `authlib:lease:refresh:${await sha256Hex(`${account.provider}\u0000${account.providerAccountId}`)}`;
  await underRefreshLease(options, leases, key, {
    async refresh() {
      // Read again under the lease: the previous holder may have stored new tokens since our read.
      const current = await reread(adapter, account);
      if (current && !changedSince(account, current)) await spendRefreshToken(adapter, provider, current);
    },
    async settled() {
      return changedSince(account, await reread(adapter, account));
    },
  });
}

/** Spends `account`'s refresh token and writes the new tokens only if the row still holds the spent one. */
async function spendRefreshToken(adapter: AccountTokenStore, provider: OAuthConfig, account: AdapterAccount): Promise<void> {
  const previous = account.refresh_token as string;
  const fresh = await refreshAccessToken(provider, previous);
  const tokens = {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    access_token: fresh.access_token,
    refresh_token: fresh.refresh_token ?? previous,
    expires_at: fresh.expires_at,
    ...(fresh.id_token ? { id_token: fresh.id_token } : {}),
  };
  // `null`: another instance stored its refresh first; the row holds valid tokens, ours are dropped.
  if (adapter.swapAccountTokens) await adapter.swapAccountTokens(tokens, previous);
  else await adapter.updateAccount(tokens);
}
