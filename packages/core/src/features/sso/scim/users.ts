/**
 * The `Users` resource (RFC 7643 §4.1): a directory user is a core user (email, name), a membership of the
 * token's organization, and the SCIM record that keeps the resource for round trips.
 *
 * - Create: an existing core user with the address is linked only when the address is on a domain the
 *   organization has proven (DNS); otherwise a new user is made (with the address when nobody has it,
 *   without one when someone else does: their account is never joined to the directory's). The address is
 *   marked verified only on a proven domain.
 * - `active: false` (or `"False"`, as Entra ID sends it) or `DELETE`: the membership ends and
 *   `suspendUser(…, "deprovisioned")` ends every session, grant and API key of the user; `active: true`
 *   brings the membership back with the role the groups give.
 *
 * @module features/sso/scim/users
 */
import { recordAuditEvent } from "../../../audit/index.js";
import { ScimConflict, ScimForbidden, ScimResourceNotFound } from "../../../errors.js";
import { suspendUser } from "../../../session/suspend-user.js";
import type { AdapterUser } from "../../../types/adapters.js";
import type { ResponseInternal } from "../../../types/internal.js";
import type { ScimJson, ScimObject, ScimUserRecord } from "../../../types/scim.js";
import { applyPatch, parsePatchRequest } from "./patch.js";
import {
  badRequest,
  checkIfMatch,
  etagOf,
  field,
  metaOf,
  optionalString,
  requiredString,
  resourceBody,
  type ScimContext,
  without,
} from "./resource.js";
import { scimAnswer } from "./respond.js";
import { syncMembership } from "./roles.js";
import { EXTENSION_SCHEMAS, USER_SCHEMA } from "./schema.js";
import { storeOf } from "./store.js";

/**
 * The attributes authlib sets itself, or keeps apart from `resource`; and `password` (RFC 7643 §4.1.1:
 * never returned), which authlib never stores: a directory user signs in through the organization's SSO.
 */
const SERVER_ATTRIBUTES = ["id", "meta", "groups", "schemas", "userName", "externalId", "active", "password"];

/** A user's fields as the client set them. */
interface UserInput {
  userName: string;
  externalId: string | null;
  active: boolean;
  resource: ScimObject;
}

/** A group a user is in, as `groups` shows it. */
export interface GroupRef {
  id: string;
  displayName: string;
}

/** `active` as a boolean: Entra ID sends the strings `"True"` and `"False"`. */
function activeOf(value: ScimJson | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw badRequest("`active` must be a boolean.", "invalidValue");
}

/** The fields of a resource given by the client (a POST or PUT body, or a patched resource). */
function userInput(resource: ScimObject): UserInput {
  const schemas = field(resource, "schemas");
  if (
    !Array.isArray(schemas) ||
    !schemas.some((schema) => typeof schema === "string" && schema.toLowerCase() === USER_SCHEMA.toLowerCase())
  )
    throw badRequest(`A user's \`schemas\` must hold "${USER_SCHEMA}".`);
  const emails = field(resource, "emails");
  if (
    emails !== undefined &&
    emails !== null &&
    (!Array.isArray(emails) || emails.some((email) => typeof email !== "object" || email === null || Array.isArray(email)))
  )
    throw badRequest("`emails` must be a list of objects.", "invalidValue");
  return {
    userName: requiredString(field(resource, "userName"), "userName"),
    externalId: optionalString(field(resource, "externalId"), "externalId") ?? null,
    active: activeOf(field(resource, "active")),
    resource: without(resource, SERVER_ATTRIBUTES),
  };
}

/** The address of a user's resource: the primary one, else the work one, else the first; else a `userName` that is one. */
export function addressOf(input: Pick<UserInput, "userName" | "resource">): string | null {
  const emails = field(input.resource, "emails");
  const list = (Array.isArray(emails) ? emails : []).filter(
    (email): email is ScimObject => typeof email === "object" && email !== null && !Array.isArray(email),
  );
  const chosen = list.find((email) => field(email, "primary") === true) ?? list.find((email) => field(email, "type") === "work") ?? list[0];
  const value = chosen ? field(chosen, "value") : input.userName;
  return typeof value === "string" && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254 ? value.trim().toLowerCase() : null;
}

/** The display name of a user's resource: `displayName`, else `name.formatted`, else the given and family names. */
function nameOf(resource: ScimObject): string | null {
  const display = field(resource, "displayName");
  if (typeof display === "string" && display.trim()) return display.trim().slice(0, 256);
  const name = field(resource, "name");
  if (typeof name !== "object" || name === null || Array.isArray(name)) return null;
  const formatted = field(name, "formatted");
  if (typeof formatted === "string" && formatted.trim()) return formatted.trim().slice(0, 256);
  const parts = [field(name, "givenName"), field(name, "familyName")].filter(
    (part): part is string => typeof part === "string" && part.trim() !== "",
  );
  return parts.length > 0 ? parts.join(" ").slice(0, 256) : null;
}

/** The user resource as the client reads it. */
export function renderUser(context: ScimContext, record: ScimUserRecord, groups: readonly GroupRef[]): ScimObject {
  const extensions = EXTENSION_SCHEMAS.filter((schema) => field(record.resource, schema) !== undefined);
  return {
    schemas: [USER_SCHEMA, ...extensions],
    id: record.id,
    ...(record.externalId === null ? {} : { externalId: record.externalId }),
    userName: record.userName,
    ...record.resource,
    active: record.active,
    groups: groups.map((group) => ({
      value: group.id,
      display: group.displayName,
      $ref: `${context.options.authUrl}/scim/v2/Groups/${encodeURIComponent(group.id)}`,
    })),
    meta: metaOf(context, "User", record),
  };
}

/** The groups `record` is in. */
async function groupsOf(context: ScimContext, record: ScimUserRecord): Promise<GroupRef[]> {
  const store = storeOf(context.options);
  const ids = await store.listScimGroupsOfUser(context.organizationId, record.id);
  const groups = await Promise.all(ids.map((id) => store.getScimGroup(context.organizationId, id)));
  return groups.flatMap((group) => (group ? [{ id: group.id, displayName: group.displayName }] : []));
}

/** A single user's answer, with its `ETag` (and `Location` when it was made). */
async function userAnswer(context: ScimContext, record: ScimUserRecord, status: number): Promise<ResponseInternal<string>> {
  const body = renderUser(context, record, await groupsOf(context, record));
  const headers: Record<string, string> = { ETag: etagOf(record.version) };
  if (status === 201) headers.Location = (body.meta as ScimObject).location as string;
  return scimAnswer(status, body, headers);
}

/** The organization's live user `id`, or `ScimResourceNotFound`. */
export async function liveUser(context: ScimContext, id: string): Promise<ScimUserRecord> {
  const record = await storeOf(context.options).getScimUser(context.organizationId, id);
  // The store answers by organization; the check is kept here too, so a store's slip cannot cross organizations.
  if (!record || record.organizationId !== context.organizationId || record.deletedAt !== null)
    throw new ScimResourceNotFound(`The organization's directory has no user with the id "${id}".`);
  return record;
}

/** `ScimConflict` when another live user of the organization has `userName` (compared without case). */
async function assertUserNameFree(context: ScimContext, userName: string, self?: string): Promise<void> {
  const lower = userName.toLowerCase();
  const taken = (await storeOf(context.options).listScimUsers(context.organizationId)).some(
    (user) => user.id !== self && user.deletedAt === null && user.userName.toLowerCase() === lower,
  );
  if (taken) throw new ScimConflict(`The organization's directory has a user named "${userName}" already.`);
}

/** True when `address` is on a domain the organization has proven. */
async function onProvenDomain(context: ScimContext, address: string): Promise<boolean> {
  const domain = address.slice(address.lastIndexOf("@") + 1);
  const claims = await storeOf(context.options).listDomainsByName(domain);
  return claims.some((claim) => claim.organizationId === context.organizationId && claim.verifiedAt !== null);
}

/** The core user a new directory user is: linked by a proven address, else a new one. */
async function coreUserFor(context: ScimContext, input: UserInput): Promise<{ user: AdapterUser; linked: boolean }> {
  const store = storeOf(context.options);
  const address = addressOf(input);
  const proven = address !== null && (await onProvenDomain(context, address));
  const existing = address === null ? null : await store.getUserByEmail(address);
  if (existing && proven) {
    const entry = await store.getScimUserByUserId(context.organizationId, existing.id);
    if (entry && entry.deletedAt === null)
      throw new ScimConflict(`The organization's directory has this person already (user "${entry.id}").`);
    return { user: existing, linked: true };
  }
  // Someone else's address (on an unproven domain) stays theirs: the new user has none.
  const email = existing ? null : address;
  const user = await store.createUser({
    id: crypto.randomUUID(),
    email,
    name: nameOf(input.resource),
    emailVerified: proven && email ? new Date() : null,
  });
  await context.options.events.createUser?.({ user });
  return { user, linked: false };
}

/** What an audit row of a directory change says: the organization, the entry, the token's public id. */
export function auditDetail(context: ScimContext, record: { id: string }, extra = ""): string {
  return `organization=${context.organizationId} scimId=${record.id} token=${context.tokenId}${extra}`;
}

/** `ScimForbidden` when `userId` owns the organization: the directory may not deprovision them. */
async function assertNotOwner(context: ScimContext, userId: string): Promise<void> {
  const member = await storeOf(context.options).getMember(context.organizationId, userId);
  if (member?.role === "owner")
    throw new ScimForbidden("The organization's owner is managed in authlib, not by the directory: transfer ownership first.");
}

/** Ends the user's membership and every session and credential of theirs (`active: false`, `DELETE`). */
async function deprovision(context: ScimContext, record: ScimUserRecord): Promise<void> {
  await assertNotOwner(context, record.userId);
  const store = storeOf(context.options);
  const member = await store.getMember(context.organizationId, record.userId);
  if (member) await store.deleteMember(context.organizationId, record.userId);
  await suspendUser(context.options, context.options.adapter ?? {}, record.userId, "deprovisioned");
}

/** `POST /Users`. */
export async function createScimUser(context: ScimContext): Promise<ResponseInternal<string>> {
  const input = userInput(resourceBody(context.request));
  await assertUserNameFree(context, input.userName);
  const { user, linked } = await coreUserFor(context, input);
  // Checked before anything is stored: a directory that sends the owner as inactive changes nothing.
  if (linked && !input.active) await assertNotOwner(context, user.id);
  const now = new Date();
  const record: ScimUserRecord = {
    id: crypto.randomUUID(),
    organizationId: context.organizationId,
    userId: user.id,
    externalId: input.externalId,
    userName: input.userName,
    active: input.active,
    resource: input.resource,
    version: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await storeOf(context.options).createScimUser(record);
  if (record.active) await syncMembership(context, record);
  else if (linked) await deprovision(context, record);
  recordAuditEvent(context.options, context.request, {
    type: "scimUserCreated",
    userId: user.id,
    detail: auditDetail(context, record, linked ? " linked=true" : ""),
  });
  return userAnswer(context, record, 201);
}

/** `GET /Users/{id}`. */
export async function getScimUser(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  return userAnswer(context, await liveUser(context, id), 200);
}

/** Stores `input` over `record`, and does what a change of `active` means. */
async function update(context: ScimContext, record: ScimUserRecord, input: UserInput): Promise<ResponseInternal<string>> {
  if (input.userName.toLowerCase() !== record.userName.toLowerCase()) await assertUserNameFree(context, input.userName, record.id);
  const wasActive = record.active;
  if (wasActive && !input.active) await deprovision(context, record);
  const next: ScimUserRecord = { ...record, ...input, version: record.version + 1, updatedAt: new Date() };
  const stored = await storeOf(context.options).updateScimUser(next);
  const name = nameOf(input.resource);
  if (name !== null && name !== nameOf(record.resource)) await storeOf(context.options).updateUser({ id: record.userId, name });
  if (input.active) await syncMembership(context, stored);
  const type = wasActive === input.active ? "scimUserUpdated" : input.active ? "scimUserReactivated" : "scimUserDeprovisioned";
  recordAuditEvent(context.options, context.request, { type, userId: record.userId, detail: auditDetail(context, record) });
  return userAnswer(context, stored, 200);
}

/** `PUT /Users/{id}`: the resource replaced by the body. */
export async function replaceScimUser(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  const body = resourceBody(context.request);
  const record = await liveUser(context, id);
  checkIfMatch(context.request, record.version);
  return update(context, record, userInput(body));
}

/** `PATCH /Users/{id}`: the operations applied to the resource as the client reads it, then stored as a PUT would. */
export async function patchScimUser(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  const operations = parsePatchRequest(resourceBody(context.request));
  const record = await liveUser(context, id);
  checkIfMatch(context.request, record.version);
  const current = renderUser(context, record, []);
  const patched = applyPatch(without(current, ["groups", "meta"]), operations);
  const newId = field(patched, "id");
  if (newId !== record.id) throw badRequest("`id` is set by the server: a PATCH may not change it.", "mutability");
  return update(context, record, userInput(patched));
}

/** `DELETE /Users/{id}`: deprovisioned, then gone from the directory (and its groups). */
export async function deleteScimUser(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  const record = await liveUser(context, id);
  checkIfMatch(context.request, record.version);
  if (record.active) await deprovision(context, record);
  const store = storeOf(context.options);
  for (const groupId of await store.listScimGroupsOfUser(context.organizationId, record.id)) {
    const members = await store.listScimGroupMembers(context.organizationId, groupId);
    await store.setScimGroupMembers(
      context.organizationId,
      groupId,
      members.filter((member) => member !== record.id),
    );
  }
  const now = new Date();
  await store.updateScimUser({ ...record, active: false, deletedAt: now, updatedAt: now, version: record.version + 1 });
  recordAuditEvent(context.options, context.request, {
    type: "scimUserDeleted",
    userId: record.userId,
    detail: auditDetail(context, record),
  });
  return scimAnswer(204, null);
}
