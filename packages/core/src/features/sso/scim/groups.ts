/**
 * The `Groups` resource (RFC 7643 §4.2): a group of the organization's directory, its members users of the
 * same directory. A group whose name is a declared role gives its members that role (`roles.ts`): every
 * change of a group's name or members brings the roles of the users concerned back in line.
 *
 * @module features/sso/scim/groups
 */
import { recordAuditEvent } from "../../../audit/index.js";
import { ScimConflict, ScimResourceNotFound } from "../../../errors.js";
import type { ResponseInternal } from "../../../types/internal.js";
import type { ScimGroupRecord, ScimObject } from "../../../types/scim.js";
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
import { GROUP_SCHEMA } from "./schema.js";
import { storeOf } from "./store.js";

/** The most members one group may have (a request names them all). */
export const MAX_MEMBERS = 10_000;

/** The attributes authlib sets itself, or keeps apart from `resource`. */
const SERVER_ATTRIBUTES = ["id", "meta", "schemas", "displayName", "externalId", "members"];

/** A member as `members` shows it. */
export interface MemberRef {
  id: string;
  userName: string;
}

/** A group's fields as the client set them; `members` are SCIM user ids. */
interface GroupInput {
  displayName: string;
  externalId: string | null;
  members: string[];
  resource: ScimObject;
}

/** The fields of a group resource given by the client. */
function groupInput(resource: ScimObject): GroupInput {
  const schemas = field(resource, "schemas");
  if (
    !Array.isArray(schemas) ||
    !schemas.some((schema) => typeof schema === "string" && schema.toLowerCase() === GROUP_SCHEMA.toLowerCase())
  )
    throw badRequest(`A group's \`schemas\` must hold "${GROUP_SCHEMA}".`);
  const members = field(resource, "members") ?? [];
  if (!Array.isArray(members) || members.length > MAX_MEMBERS)
    throw badRequest(`\`members\` must be a list of at most ${MAX_MEMBERS} members.`, "invalidValue");
  const ids = members.map((member) => {
    const value = typeof member === "object" && member !== null && !Array.isArray(member) ? field(member, "value") : undefined;
    if (typeof value !== "string" || value === "")
      throw badRequest("Each member must be an object with the user's id as `value`.", "invalidValue");
    return value;
  });
  return {
    displayName: requiredString(field(resource, "displayName"), "displayName"),
    externalId: optionalString(field(resource, "externalId"), "externalId") ?? null,
    members: [...new Set(ids)],
    resource: without(resource, SERVER_ATTRIBUTES),
  };
}

/** The group resource as the client reads it (`members` left out when `withMembers` is false: `excludedAttributes=members`). */
export function renderGroup(context: ScimContext, record: ScimGroupRecord, members: readonly MemberRef[]): ScimObject {
  return {
    schemas: [GROUP_SCHEMA],
    id: record.id,
    ...(record.externalId === null ? {} : { externalId: record.externalId }),
    displayName: record.displayName,
    ...record.resource,
    members: members.map((member) => ({
      value: member.id,
      display: member.userName,
      $ref: `${context.options.authUrl}/scim/v2/Users/${encodeURIComponent(member.id)}`,
    })),
    meta: metaOf(context, "Group", record),
  };
}

/** The members of a group, with their user names. */
export async function membersOf(context: ScimContext, groupId: string): Promise<MemberRef[]> {
  const store = storeOf(context.options);
  const ids = await store.listScimGroupMembers(context.organizationId, groupId);
  const users = await Promise.all(ids.map((id) => store.getScimUser(context.organizationId, id)));
  return users.flatMap((user) => (user && user.deletedAt === null ? [{ id: user.id, userName: user.userName }] : []));
}

async function groupAnswer(context: ScimContext, record: ScimGroupRecord, status: number): Promise<ResponseInternal<string>> {
  const body = renderGroup(context, record, await membersOf(context, record.id));
  const headers: Record<string, string> = { ETag: etagOf(record.version) };
  if (status === 201) headers.Location = (body.meta as ScimObject).location as string;
  return scimAnswer(status, body, headers);
}

/** The organization's group `id`, or `ScimResourceNotFound`. */
async function groupOf(context: ScimContext, id: string): Promise<ScimGroupRecord> {
  const record = await storeOf(context.options).getScimGroup(context.organizationId, id);
  if (!record || record.organizationId !== context.organizationId)
    throw new ScimResourceNotFound(`The organization's directory has no group with the id "${id}".`);
  return record;
}

/** `ScimConflict` when another group of the organization has `displayName` (compared without case). */
async function assertNameFree(context: ScimContext, displayName: string, self?: string): Promise<void> {
  const lower = displayName.toLowerCase();
  const groups = await storeOf(context.options).listScimGroups(context.organizationId);
  if (groups.some((group) => group.id !== self && group.displayName.toLowerCase() === lower))
    throw new ScimConflict(`The organization's directory has a group named "${displayName}" already.`);
}

/** `ScimInvalidRequest` unless every id is a live user of the organization's directory (another organization's is none). */
async function assertMembers(context: ScimContext, ids: readonly string[]): Promise<void> {
  const store = storeOf(context.options);
  const users = await Promise.all(ids.map((id) => store.getScimUser(context.organizationId, id)));
  const unknown = ids.filter((_, i) => {
    const user = users[i];
    return !user || user.organizationId !== context.organizationId || user.deletedAt !== null;
  });
  if (unknown.length > 0)
    throw badRequest(`Not a user of the organization's directory: ${unknown.slice(0, 5).join(", ")}.`, "invalidValue");
}

/** Brings the roles of `userIds` in line with their groups. */
async function resyncRoles(context: ScimContext, userIds: Iterable<string>): Promise<void> {
  const store = storeOf(context.options);
  for (const id of new Set(userIds)) {
    const user = await store.getScimUser(context.organizationId, id);
    if (user && user.organizationId === context.organizationId) await syncMembership(context, user);
  }
}

const auditDetail = (context: ScimContext, record: { id: string }) =>
  `organization=${context.organizationId} scimId=${record.id} token=${context.tokenId}`;

/** `POST /Groups`. */
export async function createScimGroup(context: ScimContext): Promise<ResponseInternal<string>> {
  const input = groupInput(resourceBody(context.request));
  await assertNameFree(context, input.displayName);
  await assertMembers(context, input.members);
  const now = new Date();
  const record: ScimGroupRecord = {
    id: crypto.randomUUID(),
    organizationId: context.organizationId,
    externalId: input.externalId,
    displayName: input.displayName,
    resource: input.resource,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const store = storeOf(context.options);
  await store.createScimGroup(record);
  await store.setScimGroupMembers(context.organizationId, record.id, input.members);
  await resyncRoles(context, input.members);
  recordAuditEvent(context.options, context.request, { type: "scimGroupCreated", userId: null, detail: auditDetail(context, record) });
  return groupAnswer(context, record, 201);
}

/** `GET /Groups/{id}`. */
export async function getScimGroup(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  return groupAnswer(context, await groupOf(context, id), 200);
}

/** Stores `input` over `record`; the roles of its old and new members follow. */
async function update(context: ScimContext, record: ScimGroupRecord, input: GroupInput): Promise<ResponseInternal<string>> {
  if (input.displayName.toLowerCase() !== record.displayName.toLowerCase()) await assertNameFree(context, input.displayName, record.id);
  await assertMembers(context, input.members);
  const store = storeOf(context.options);
  const before = await store.listScimGroupMembers(context.organizationId, record.id);
  const next: ScimGroupRecord = {
    ...record,
    displayName: input.displayName,
    externalId: input.externalId,
    resource: input.resource,
    version: record.version + 1,
    updatedAt: new Date(),
  };
  const stored = await store.updateScimGroup(next);
  await store.setScimGroupMembers(context.organizationId, record.id, input.members);
  await resyncRoles(context, [...before, ...input.members]);
  recordAuditEvent(context.options, context.request, { type: "scimGroupUpdated", userId: null, detail: auditDetail(context, record) });
  return groupAnswer(context, stored, 200);
}

/** `PUT /Groups/{id}`. */
export async function replaceScimGroup(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  const body = resourceBody(context.request);
  const record = await groupOf(context, id);
  checkIfMatch(context.request, record.version);
  return update(context, record, groupInput(body));
}

/** `PATCH /Groups/{id}`: members added and removed one by one as Okta and Entra ID send them. */
export async function patchScimGroup(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  const operations = parsePatchRequest(resourceBody(context.request));
  const record = await groupOf(context, id);
  checkIfMatch(context.request, record.version);
  const current = renderGroup(context, record, await membersOf(context, record.id));
  const patched = applyPatch(without(current, ["meta"]), operations);
  if (field(patched, "id") !== record.id) throw badRequest("`id` is set by the server: a PATCH may not change it.", "mutability");
  return update(context, record, groupInput(patched));
}

/** `DELETE /Groups/{id}`: its members lose the role it gave. */
export async function deleteScimGroup(context: ScimContext, id: string): Promise<ResponseInternal<string>> {
  const record = await groupOf(context, id);
  checkIfMatch(context.request, record.version);
  const store = storeOf(context.options);
  const members = await store.listScimGroupMembers(context.organizationId, record.id);
  await store.deleteScimGroup(context.organizationId, record.id);
  await resyncRoles(context, members);
  recordAuditEvent(context.options, context.request, { type: "scimGroupDeleted", userId: null, detail: auditDetail(context, record) });
  return scimAnswer(204, null);
}
