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

/** At most this many reads are remembered per instance (the oldest organization's oldest go first). */
const MAX_ENTRIES = 10_000;

interface Entry {
  role: string | null;
  readAt: number;
}

/**
 * The reads of one instance, by organization then user: two lookups of the token's own strings, where one
 * key joined from both would be a new string to build and hash on every session check.
 */
interface RoleCache {
  byOrganization: Map<string, Map<string, Entry>>;
  size: number;
}

const caches = new WeakMap<object, RoleCache>();

function cacheOf(options: InternalOptions): RoleCache {
  const key = settingsOf(options);
  let cache = caches.get(key);
  if (!cache) {
    cache = { byOrganization: new Map(), size: 0 };
    caches.set(key, cache);
  }
  return cache;
}

/** How long, in ms, this instance may trust its last read (0: read every time). */
function boundOf(options: InternalOptions): number {
  const { strategy, revocation, revalidateAfter } = options.session;
  return strategy === "jwt" && revocation === "eventual" ? revalidateAfter * 1000 : 0;
}

/**
 * The user's role in the organization, or `null` when they are not a member of it (any more): from this
 * instance's last read without a promise while it is within the bound, else read from the store.
 */
export function roleIn(options: InternalOptions, userId: string, organizationId: string): string | null | Promise<string | null> {
  const bound = boundOf(options);
  if (bound > 0) {
    const known = cacheOf(options).byOrganization.get(organizationId)?.get(userId);
    if (known && Date.now() - known.readAt < bound) return known.role;
  }
  return readRole(options, bound, userId, organizationId);
}

async function readRole(options: InternalOptions, bound: number, userId: string, organizationId: string): Promise<string | null> {
  const [organization, member] = await Promise.all([
    storeOf(options).getOrganization(organizationId),
    storeOf(options).getMember(organizationId, userId),
  ]);
  const role = organization && member ? member.role : null;
  if (bound > 0) remember(cacheOf(options), organizationId, userId, { role, readAt: Date.now() });
  return role;
}

/** Keeps `entry` as the newest read (dropping the oldest when the cache is full). */
function remember(cache: RoleCache, organizationId: string, userId: string, entry: Entry): void {
  forget(cache, organizationId, userId);
  if (cache.size >= MAX_ENTRIES) {
    const [oldestOrganization, members] = cache.byOrganization.entries().next().value as [string, Map<string, Entry>];
    forget(cache, oldestOrganization, members.keys().next().value as string);
  }
  let members = cache.byOrganization.get(organizationId);
  if (!members) {
    members = new Map();
    cache.byOrganization.set(organizationId, members);
  }
  members.set(userId, entry);
  cache.size += 1;
}

function forget(cache: RoleCache, organizationId: string, userId?: string): void {
  const members = cache.byOrganization.get(organizationId);
  if (!members) return;
  if (userId === undefined) {
    cache.size -= members.size;
    cache.byOrganization.delete(organizationId);
    return;
  }
  if (members.delete(userId)) cache.size -= 1;
  if (members.size === 0) cache.byOrganization.delete(organizationId);
}

/** Forgets this instance's reads of the organization (one member's, or all of them). */
export function forgetRole(options: InternalOptions, organizationId: string, userId?: string): void {
  forget(cacheOf(options), organizationId, userId);
}
