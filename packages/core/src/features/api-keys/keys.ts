/**
 * The key operations of a signed-in user: create (the key shown once), list, revoke, rotate, for their own
 * keys and, with the organization permission (`apiKeys.organizationPermission`), their organization's.
 *
 * Creating and rotating a key are owner-present operations (they make a credential that acts for the
 * user): a stolen session older than the owner-present bound is refused, and the owner is mailed either way
 * (`mail.change.apiKeyCreated`). Revoking needs only the session: it ends access, it gives none.
 *
 * @module features/api-keys/keys
 */
import { recordAuditEvent } from "../../audit/index.js";
import { ApiKeyNotFound, InvalidApiKeyRequest, OrganizationForbidden, OrganizationNotFound, SessionRequired } from "../../errors.js";
import { tellOwner } from "../../sign-in/tell-owner.js";
import type { ApiKeyRecord } from "../../types/api-keys.js";
import type { ConfigOptions, InternalOptions, RequestInternal } from "../../types/internal.js";
import { forgetKey, forgetKeysOf } from "./cache.js";
import { newKey, startOf } from "./key-format.js";
import { hashKey } from "./key-hash.js";
import { settingsOf } from "./settings.js";
import { storeOf } from "./store.js";
import type { CreatedApiKey, ListedApiKey } from "./types.js";
import { auditDetail, roleGrants } from "./verify.js";

const NO_STORE = { "cache-control": "no-store" };

/** The signed-in user's id (`SessionRequired` when nobody is). */
async function signedIn(options: InternalOptions, request: RequestInternal): Promise<string> {
  const current = await options.sessionStrategy.currentAssurance(options, request);
  if (!current) throw new SessionRequired("Sign in first: the request has no session.");
  request.auditUserId = current.userId;
  return current.userId;
}

/** The user's role in the organization; `OrganizationNotFound` when they are not a member (or organizations are off). */
async function memberRole(options: InternalOptions, userId: string, organizationId: string): Promise<string> {
  const find = options.hooks?.organizationRole;
  const role = find ? await find(options, userId, organizationId) : null;
  if (role === null) throw new OrganizationNotFound("No organization of yours has this id.");
  return role;
}

/** Checks that the user may manage the organization's keys; returns their role. */
async function managerRole(options: InternalOptions, userId: string, organizationId: string): Promise<string> {
  const role = await memberRole(options, userId, organizationId);
  const permission = settingsOf(options.config).organizationPermission;
  if (!roleGrants(options, role, [permission])) {
    const error = new OrganizationForbidden(`Your role does not grant \`${permission}\`, which manages the organization's API keys.`);
    error.permission = permission;
    throw error;
  }
  return role;
}

/** A key as its holder sees it in a list: never the key or its hash. */
export function listed(record: ApiKeyRecord): ListedApiKey {
  return {
    id: record.id,
    name: record.name,
    start: record.start,
    scopes: [...record.scopes],
    organizationId: record.organizationId,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    expiresAt: record.expiresAt,
  };
}

const isLive = (record: ApiKeyRecord) =>
  record.revokedAt === null && (record.expiresAt === null || record.expiresAt.getTime() > Date.now());

/** The live keys of the user (no organization) or of the organization. */
async function liveKeys(options: InternalOptions, userId: string, organizationId: string | undefined): Promise<ApiKeyRecord[]> {
  const store = storeOf(options);
  const all = organizationId === undefined ? await store.listApiKeysByUser(userId) : await store.listApiKeysByOrganization(organizationId);
  return all.filter((record) => isLive(record) && (organizationId !== undefined || record.organizationId === null));
}

/** The scopes a new key may carry: the app's declared user scopes, or what the member's role grants. */
function checkScopes(options: InternalOptions, scopes: readonly string[], role: string | undefined): void {
  if (role === undefined) {
    const declared = settingsOf(options.config).scopes;
    const unknown = scopes.filter((scope) => !Object.hasOwn(declared, scope));
    if (unknown.length > 0) throw new InvalidApiKeyRequest(`Not a scope of this app's keys: ${unknown.join(", ")}.`);
    return;
  }
  const beyond = scopes.filter((scope) => !roleGrants(options, role, [scope]));
  if (beyond.length > 0) throw new InvalidApiKeyRequest(`Your role in the organization does not grant: ${beyond.join(", ")}.`);
}

/** When a new key expires: the asked lifetime within `maxExpiresIn`, else the app's default. */
function expiryOf(options: InternalOptions, expiresIn: number | undefined, now: number): Date | null {
  const { defaultExpiresIn, maxExpiresIn } = settingsOf(options.config);
  const seconds = expiresIn ?? defaultExpiresIn;
  if (seconds !== null && maxExpiresIn !== null && seconds > maxExpiresIn)
    throw new InvalidApiKeyRequest(`\`expiresIn\` must be at most ${maxExpiresIn} seconds.`);
  return seconds === null ? null : new Date(now + seconds * 1000);
}

/** Makes and stores a key; returns it with its record (the only time the key exists outside the caller). */
async function issue(
  options: InternalOptions,
  fields: Pick<ApiKeyRecord, "userId" | "organizationId" | "name" | "scopes" | "expiresAt">,
  now: number,
): Promise<CreatedApiKey> {
  const { prefix } = settingsOf(options.config);
  const made = newKey(prefix);
  const record: ApiKeyRecord = {
    ...fields,
    id: made.id,
    hash: await hashKey(options.secret, made),
    start: startOf(prefix, made.id),
    createdAt: new Date(now),
    lastUsedAt: null,
    revokedAt: null,
  };
  await storeOf(options).createApiKey(record);
  return { key: made.key, apiKey: listed(record) };
}

/** The handler of `POST api-keys/create`. */
export async function createApiKey(
  options: InternalOptions,
  request: RequestInternal,
  input: { name: string; scopes?: string[]; expiresIn?: number; organizationId?: string },
): Promise<{ body: CreatedApiKey; headers: Record<string, string> }> {
  const userId = await signedIn(options, request);
  const organizationId = input.organizationId || undefined;
  const role = organizationId === undefined ? undefined : await managerRole(options, userId, organizationId);
  const scopes = input.scopes ?? [];
  checkScopes(options, scopes, role);
  const now = Date.now();
  const expiresAt = expiryOf(options, input.expiresIn, now);
  if ((await liveKeys(options, userId, organizationId)).length >= settingsOf(options.config).maxPerUser)
    throw new InvalidApiKeyRequest(`At most ${settingsOf(options.config).maxPerUser} live keys: revoke one first.`);
  const created = await issue(options, { userId, organizationId: organizationId ?? null, name: input.name, scopes, expiresAt }, now);
  recordAuditEvent(options, request, { type: "apiKeyCreated", userId, detail: auditDetail(created.apiKey) });
  await tellOwner(options, request, { id: userId }, "apiKeyCreated");
  return { body: created, headers: NO_STORE };
}

/** The handler of `GET api-keys/list`: the user's own keys, or the organization's (with the permission). */
export async function listApiKeys(
  options: InternalOptions,
  request: RequestInternal,
  input: { organizationId?: string },
): Promise<{ body: { apiKeys: ListedApiKey[] }; headers: Record<string, string> }> {
  const userId = await signedIn(options, request);
  const organizationId = input.organizationId || undefined;
  if (organizationId !== undefined) await managerRole(options, userId, organizationId);
  return { body: { apiKeys: (await liveKeys(options, userId, organizationId)).map(listed) }, headers: NO_STORE };
}

/** A live key the user may manage: their own user key, or a key of an organization where they have the permission. */
async function manageable(options: InternalOptions, userId: string, keyId: string): Promise<ApiKeyRecord> {
  const record = await storeOf(options).getApiKey(keyId);
  if (!record || !isLive(record)) throw new ApiKeyNotFound("No live key of yours has this id.");
  if (record.organizationId === null) {
    if (record.userId !== userId) throw new ApiKeyNotFound("No live key of yours has this id.");
    return record;
  }
  try {
    await managerRole(options, userId, record.organizationId);
  } catch (error) {
    // Not a member: the key is not theirs to know of. A member without the permission is told so.
    if (error instanceof OrganizationNotFound) throw new ApiKeyNotFound("No live key of yours has this id.");
    throw error;
  }
  return record;
}

/** Ends a key in the store and in this instance's cache. */
async function end(options: InternalOptions, record: ApiKeyRecord): Promise<void> {
  await storeOf(options).revokeApiKey(record.id, new Date());
  forgetKey(options.instanceState, record.id);
}

/** The handler of `POST api-keys/revoke`: an owner-present operation (`revokeApiKey`), its creator mailed. */
export async function revokeApiKey(
  options: InternalOptions,
  request: RequestInternal,
  input: { keyId: string },
): Promise<{ body: { revoked: true } }> {
  const userId = await signedIn(options, request);
  const record = await manageable(options, userId, input.keyId);
  await end(options, record);
  recordAuditEvent(options, request, { type: "apiKeyRevoked", userId, detail: auditDetail(record) });
  // The key's creator is told (an organization key may be revoked by another member who manages it).
  await tellOwner(options, request, { id: record.userId }, "apiKeyRevoked");
  return { body: { revoked: true } };
}

/**
 * The handler of `POST api-keys/rotate`: a new key with the old one's name, scopes, organization and
 * lifetime (counted from now, within `maxExpiresIn`), and the old one ends at once. An organization key is
 * re-issued in the rotating member's name: their role must grant its scopes.
 */
export async function rotateApiKey(
  options: InternalOptions,
  request: RequestInternal,
  input: { keyId: string },
): Promise<{ body: CreatedApiKey; headers: Record<string, string> }> {
  const userId = await signedIn(options, request);
  const old = await manageable(options, userId, input.keyId);
  // The new key's scopes are checked as a new key's: the app may have dropped a scope, the member lost a permission.
  checkScopes(options, old.scopes, old.organizationId === null ? undefined : await memberRole(options, userId, old.organizationId));
  const now = Date.now();
  const lifetime = old.expiresAt === null ? null : Math.max(60, Math.round((old.expiresAt.getTime() - old.createdAt.getTime()) / 1000));
  const { maxExpiresIn, defaultExpiresIn } = settingsOf(options.config);
  const seconds = lifetime === null ? (maxExpiresIn === null ? null : defaultExpiresIn) : Math.min(lifetime, maxExpiresIn ?? lifetime);
  const expiresAt = seconds === null ? null : new Date(now + seconds * 1000);
  const created = await issue(options, { userId, organizationId: old.organizationId, name: old.name, scopes: old.scopes, expiresAt }, now);
  await end(options, old);
  recordAuditEvent(options, request, { type: "apiKeyRotated", userId, detail: `${auditDetail(old)} replacedBy=${created.apiKey.id}` });
  await tellOwner(options, request, { id: userId }, "apiKeyCreated");
  return { body: created, headers: NO_STORE };
}

/** Revokes every key `userId` created (suspended, `SignInHooks.userSuspended`), forgetting this instance's reads of them. */
export async function revokeEveryKey(
  options: Pick<ConfigOptions, "adapter" | "config" | "audit" | "instanceState">,
  userId: string,
): Promise<void> {
  const live = (await storeOf(options).listApiKeysByUser(userId)).filter((record) => record.revokedAt === null);
  await storeOf(options).revokeApiKeysByUser(userId, new Date());
  forgetKeysOf(options.instanceState, userId);
  for (const record of live)
    recordAuditEvent(options, undefined, { type: "apiKeyRevoked", userId, detail: `${auditDetail(record)} reason=suspended` });
}
