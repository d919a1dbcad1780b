/**
 * The refresh lease: with database sessions, one instance at a time spends an account's refresh token.
 *
 * The lease lives in the shared `rateLimit.store` when that store has `lease` and `release` (PostgreSQL:
 * `hostedDbRateLimitStore`, Redis: `redisRateLimitStore`). The instance that takes it re-reads the account
 * row and refreshes only if the row still holds what it read; an instance that does not get it waits,
 * re-reading the row, until the holder has stored the new tokens (then uses them) or the lease is free
 * again (then takes it, e.g. after the holder failed). Without such a store, or when the store fails,
 * refresh goes on without a lease, as before it existed: the in-process single-flight and the adapter's
 * conditional write still apply (session/refresh.ts).
 *
 * @module session/refresh-lease
 */
import { AdapterError, OAuthCallbackError } from "../errors.js";
import { PROVIDER_REQUEST_TIMEOUT_MS } from "../oauth/provider-fetch.js";
import type { RateLimitStore } from "../rate-limit/store.js";
import type { InternalOptions } from "../types/internal.js";

/**
 * How long a lease lasts unless released: longer than a refresh can take (discovery and token request,
 * each cut off at the provider timeout), so it ends before another instance may take it only when its
 * holder died.
 */
export const REFRESH_LEASE_TTL_MS = 3 * PROVIDER_REQUEST_TIMEOUT_MS;
/** First pause of a waiting instance between two reads of the row; it doubles up to {@link MAX_POLL_MS}. */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 250;

/** A store that can lease. */
export type LeaseStore = Required<Pick<RateLimitStore, "lease" | "release">>;

/** The configuration's shared store when it can lease, else `undefined` (no lease: refresh as before). */
export function refreshLeaseStore(options: Pick<InternalOptions, "rateLimits">): LeaseStore | undefined {
  const config = options.rateLimits.config;
  const store = config ? config.store : undefined;
  if (typeof store?.lease !== "function" || typeof store.release !== "function") return undefined;
  return store as LeaseStore;
}

/** What {@link underRefreshLease} does with the account. */
export interface LeasedRefresh {
  /** Runs while this instance holds the lease: re-reads the row and refreshes if it still needs it. */
  refresh(): Promise<void>;
  /** True once the row shows that another instance refreshed (or the account is gone). */
  settled(): Promise<boolean>;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `work.refresh` under the lease `key` of `store` (taken for `lifetimeMs`), or waits until
 * `work.settled`. Rejects with `OAuthCallbackError` when neither happens within the lease's lifetime (a
 * store whose leases never end). A failing store is logged (`AdapterError`) and the refresh runs without
 * the lease.
 */
export async function underRefreshLease(
  options: Pick<InternalOptions, "logger">,
  store: LeaseStore,
  key: string,
  work: LeasedRefresh,
  lifetimeMs = REFRESH_LEASE_TTL_MS,
): Promise<void> {
  const deadline = Date.now() + lifetimeMs + MAX_POLL_MS;
  let delay = FIRST_POLL_MS;
  for (;;) {
    let token: string | null;
    try {
      token = await store.lease(key, lifetimeMs);
    } catch (error) {
      options.logger.error(new AdapterError("The refresh lease could not be taken; refreshing without it.", { cause: error as Error }));
      return work.refresh();
    }
    if (token !== null) {
      try {
        return await work.refresh();
      } finally {
        // Not released (the store failed): it ends by itself after its lifetime.
        await store.release(key, token).catch((error: Error) => {
          options.logger.error(new AdapterError("The refresh lease could not be released.", { cause: error }));
        });
      }
    }
    await pause(delay);
    delay = Math.min(delay * 2, MAX_POLL_MS);
    if (await work.settled()) return;
    if (Date.now() > deadline) {
      throw new OAuthCallbackError("Another instance held the refresh lease past its lifetime; the access token was not refreshed.");
    }
  }
}
