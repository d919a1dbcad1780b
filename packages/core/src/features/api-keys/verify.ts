/**
 * `auth.api.verifyApiKey(request, { scopes? })`: the key a request carries (`Authorization: Bearer <key>`,
 * or the app's `apiKeys.header`), checked in this order:
 *
 * 1. its format and checksum (`key-format.ts`): a malformed, cut or tampered key is refused here, before
 *    any store read;
 * 2. its record: this instance's read within the revocation bound (`cache.ts`), else ONE store read by the
 *    public id;
 * 3. its keyed hash under every secret, compared in constant time (`key-hash.ts`): an unknown id is
 *    compared against a dummy, so it does the same work as a known id with a wrong secret, and both get
 *    the same refusal;
 * 4. revoked (or rotated out), expired;
 * 5. an organization key: its creator still a member whose role grants every scope it carries (the
 *    organizations feature's answer, `SignInHooks.organizationRole`, read with the key and kept as long);
 * 6. the scopes the caller needs (`ApiKeyScopeExceeded`);
 * 7. the per-key rate limit, then `lastUsedAt` and the `apiKeyUsed` audit row, at most once a minute per key.
 *
 * The key itself is never logged, put in an audit row or a span: only its public id is.
 *
 * @module features/api-keys/verify
 */

import { recordAuditEvent } from "../../audit/index.js";
import { ApiKeyScopeExceeded, InvalidApiKey } from "../../errors.js";
import { countRequest, storeOf as limitStoreOf, limitsOf } from "../../rate-limit/limiter.js";
import type { ApiKeyRecord } from "../../types/api-keys.js";
import type { InternalOptions, RequestInternal } from "../../types/internal.js";
import { defaultRoles } from "../organizations/public.js";
import { boundOf, type CachedKey, cachedKey, keyMemoryOf, rememberKey } from "./cache.js";
import { parseKey } from "./key-format.js";
import { keyMatches } from "./key-hash.js";
import { settingsOf } from "./settings.js";
import { storeOf } from "./store.js";
import type { ApiKeyRateLimits, VerifiedApiKey } from "./types.js";

/** `lastUsedAt` (and the `apiKeyUsed` row) is written at most this often per key, in ms. */
export const TOUCH_INTERVAL = 60_000;

/** The key the request carries, or `undefined`. */
export function presentedKey(headers: Headers, header: string | undefined): string | undefined {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (match) return match[1];
  }
  if (header !== undefined) {
    const value = headers.get(header)?.trim();
    if (value) return value;
  }
  return undefined;
}

/** True when the role `role` of the organization grants every one of `scopes` (the app's roles, else the built-in ones). */
export function roleGrants(options: Pick<InternalOptions, "config">, role: string | null | undefined, scopes: readonly string[]): boolean {
  if (role === null || role === undefined) return false;
  const roles = options.config.organizations?.roles ?? defaultRoles;
  return scopes.every((scope) => roles.can({ role }, scope as never));
}

/** The record of `id` and, for an organization key, its creator's role: this instance's read within the bound, else read now. */
async function readKey(options: InternalOptions, id: string): Promise<CachedKey | undefined> {
  const bound = boundOf(options.session);
  const known = cachedKey(options.instanceState, id, bound);
  if (known) return known;
  const record = await storeOf(options).getApiKey(id);
  if (!record) return undefined;
  const entry: CachedKey = { record, readAt: Date.now() };
  if (record.organizationId !== null && record.revokedAt === null) entry.role = await creatorRole(options, record);
  rememberKey(options.instanceState, entry, bound);
  return entry;
}

/** The creator's role in the key's organization, `null` when they left it (or organizations are off). */
async function creatorRole(options: InternalOptions, record: ApiKeyRecord): Promise<string | null> {
  const find = options.hooks?.organizationRole;
  if (!find || record.organizationId === null) return null;
  return find(options, record.userId, record.organizationId);
}

function limitOf(options: InternalOptions): Required<ApiKeyRateLimits> | false {
  const limits = limitsOf(options);
  if (!limits) return false;
  return (limits.features.apiKeys as Required<ApiKeyRateLimits> | false | undefined) ?? false;
}

/** Counts one use of the key; throws `RateLimited` past `rateLimit.apiKeys.perKeyMax` per window. */
async function countUse(options: InternalOptions, id: string): Promise<void> {
  const limit = limitOf(options);
  if (!limit) return;
  const limits = limitsOf(options);
  if (!limits) return;
  await countRequest(
    options,
    limitStoreOf(limits),
    "apikey:key",
    id,
    { max: limit.perKeyMax, windowSeconds: limit.windowSeconds },
    "Too many requests with this API key; try again later.",
  );
}

/** Writes `lastUsedAt` and the `apiKeyUsed` row when this key's last write is a minute old (on this instance and in the store). */
async function touch(options: InternalOptions, request: RequestInternal, record: ApiKeyRecord): Promise<void> {
  // When this instance last wrote each key's `lastUsedAt` (so it does not even ask the store more often).
  const mine = keyMemoryOf(options.instanceState).touched;
  const now = Date.now();
  const last = Math.max(mine.get(record.id) ?? 0, record.lastUsedAt?.getTime() ?? 0);
  if (now - last < TOUCH_INTERVAL) return;
  if (mine.size >= 10_000) mine.clear();
  mine.set(record.id, now);
  if (await storeOf(options).touchApiKey(record.id, new Date(now), TOUCH_INTERVAL))
    recordAuditEvent(options, request, { type: "apiKeyUsed", userId: record.userId, detail: auditDetail(record) });
}

/** An audit row's detail for a key: its public id (and organization), never the key. */
export function auditDetail(record: Pick<ApiKeyRecord, "id" | "organizationId">): string {
  return record.organizationId === null ? `key=${record.id}` : `key=${record.id} organization=${record.organizationId}`;
}

/** The handler of `verifyApiKey` (`GET api-keys/verify` and `auth.api.verifyApiKey`). */
export async function verifyApiKey(
  options: InternalOptions,
  request: RequestInternal,
  input: { scopes?: string[] } | undefined,
): Promise<{ body: VerifiedApiKey; headers: Record<string, string> }> {
  const settings = settingsOf(options.config);
  const presented = presentedKey(request.headers, settings.header);
  if (presented === undefined)
    throw new InvalidApiKey(
      `No API key: send it as \`Authorization: Bearer <key>\`${settings.header ? ` or in \`${settings.header}\`` : ""}.`,
    );
  const parts = parseKey(settings.prefix, presented);
  if (!parts) throw new InvalidApiKey("The API key is not one of this app's keys (its format or checksum is wrong).");
  const entry = await readKey(options, parts.id);
  const matches = await keyMatches(options.secret, parts, entry?.record.hash);
  if (!entry || !matches) throw new InvalidApiKey("The API key is unknown or wrong.");
  const { record } = entry;
  request.auditUserId = record.userId;
  request.trace?.span.setAttribute("authlib.api_key.id", record.id);
  if (record.revokedAt !== null) throw new InvalidApiKey("The API key was revoked (or replaced by a rotation).");
  if (record.expiresAt !== null && record.expiresAt.getTime() <= Date.now()) throw new InvalidApiKey("The API key has expired.");
  if (record.organizationId !== null && !roleGrants(options, entry.role, record.scopes))
    throw new InvalidApiKey("The organization key's creator is no longer a member, or no longer has every permission the key carries.");
  const needed = input?.scopes ?? [];
  const missing = needed.filter((scope) => !record.scopes.includes(scope));
  if (missing.length > 0) {
    const error = new ApiKeyScopeExceeded(`The API key does not carry the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`);
    error.scopes = needed;
    throw error;
  }
  await countUse(options, record.id);
  await touch(options, request, record);
  return {
    body: { keyId: record.id, userId: record.userId, organizationId: record.organizationId, scopes: [...record.scopes] },
    headers: { "cache-control": "no-store" },
  };
}
