/**
 * The role the session shows for its active organization (`session.activeOrganizationRole`), read from the
 * store within the session-control bound: JWT sessions with `revocation: "eventual"` trust this instance's
 * last read for `revalidateAfter` seconds (the check between reads costs a map lookup); strict revocation
 * and database sessions read every time. A change made on this instance forgets its entries at once; other
 * instances see it within the bound. Only what the session shows is cached: every operation in an
 * organization reads the membership again (`access.ts`).
 *
 * @module features/organizations/membership-cache
 */
import type { InternalOptions } from "../../types/internal.js";
import { settingsOf, storeOf } from "./store.js";

/** At most this many reads are remembered per instance (the oldest go first). */
const MAX_ENTRIES = 10_000;

interface Entry {
  role: string | null;
  readAt: number;
}

const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(options: InternalOptions): Map<string, Entry> {
  const key = settingsOf(options);
  let cache = caches.get(key);
  if (!cache) {
    cache = new Map();
    caches.set(key, cache);
  }
  return cache;
}

/** How long, in ms, this instance may trust its last read (0: read every time). */
function boundOf(options: InternalOptions): number {
  const { strategy, revocation, revalidateAfter } = options.session;
  return strategy === "jwt" && revocation === "eventual" ? revalidateAfter * 1000 : 0;
}

/** The user's role in the organization, or `null` when they are not a member of it (any more). */
export async function roleIn(options: InternalOptions, userId: string, organizationId: string): Promise<string | null> {
  const bound = boundOf(options);
  const cache = cacheOf(options);
  const key = `${organizationId}\u0000${userId}`;
  const known = cache.get(key);
  if (known && bound > 0 && Date.now() - known.readAt < bound) return known.role;
  const [organization, member] = await Promise.all([
    storeOf(options).getOrganization(organizationId),
    storeOf(options).getMember(organizationId, userId),
  ]);
  const role = organization && member ? member.role : null;
  if (bound > 0) {
    cache.delete(key);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { role, readAt: Date.now() });
  }
  return role;
}

/** Forgets this instance's reads of the organization (one member's, or all of them). */
export function forgetRole(options: InternalOptions, organizationId: string, userId?: string): void {
  const cache = cacheOf(options);
  if (userId !== undefined) {
    cache.delete(`${organizationId}\u0000${userId}`);
    return;
  }
  for (const key of cache.keys()) if (key.startsWith(`${organizationId}\u0000`)) cache.delete(key);
}
