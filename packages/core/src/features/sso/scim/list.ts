/**
 * Listing a resource type (RFC 7644 §3.4.2): the organization's resources as the client reads them, those
 * the `filter` matches, in the order they were made, one page from `startIndex` (1-based) of at most
 * `count` (cut to `sso.scim.maxResults`; `count=0` answers only `totalResults`), with only the attributes
 * asked for (`attributes`, `excludedAttributes`; top-level names).
 *
 * @module features/sso/scim/list
 */
import type { ResponseInternal } from "../../../types/internal.js";
import type { ScimObject } from "../../../types/scim.js";
import { matches, parseFilter } from "./filter.js";
import { type MemberRef, renderGroup } from "./groups.js";
import { badRequest, type ScimContext } from "./resource.js";
import { scimAnswer } from "./respond.js";
import { attributePath, LIST_RESPONSE } from "./schema.js";
import { maxResultsOf, storeOf } from "./store.js";
import { type GroupRef, renderUser } from "./users.js";

/** The paging of a list request. */
interface Page {
  startIndex: number;
  count: number;
}

/** A non-negative whole number of a query parameter, or `fallback` when absent. */
function wholeNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^-?\d{1,15}$/.test(value)) throw badRequest(`\`${name}\` must be a whole number.`, "invalidValue");
  return Number(value);
}

/** `startIndex` (below 1 is 1) and `count` (below 0 is 0; above the bound is the bound), RFC 7644 §3.4.2.4. */
function pageOf(context: ScimContext): Page {
  const query = context.request.query;
  const max = maxResultsOf(context.options);
  const startIndex = Math.max(1, wholeNumber(query.startIndex, "startIndex", 1));
  const count = Math.min(max, Math.max(0, wholeNumber(query.count, "count", max)));
  return { startIndex, count };
}

/** The names of a comma-separated list of attribute paths, their first step in lower case. */
function namesOf(value: string | undefined): Set<string> | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return new Set(value.split(",").map((path) => (attributePath(path.trim())[0] ?? "").toLowerCase()));
}

/** `resource` with only the asked attributes (`id` and `schemas` always), or without the excluded ones. */
export function projected(resource: ScimObject, query: Record<string, string>): ScimObject {
  const only = namesOf(query.attributes);
  const excluded = namesOf(query.excludedAttributes);
  const always = new Set(["id", "schemas"]);
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => {
      const lower = key.toLowerCase();
      if (always.has(lower)) return true;
      if (only) return only.has(lower);
      return !excluded?.has(lower);
    }),
  );
}

/** The list answer of `resources` (already rendered, in order). */
function listAnswer(context: ScimContext, resources: readonly ScimObject[]): ResponseInternal<string> {
  const { startIndex, count } = pageOf(context);
  const filterText = context.request.query.filter;
  const filter = filterText === undefined || filterText === "" ? undefined : parseFilter(filterText);
  const matched = filter ? resources.filter((resource) => matches(resource, filter)) : resources;
  const page = matched.slice(startIndex - 1, startIndex - 1 + count).map((resource) => projected(resource, context.request.query));
  return scimAnswer(200, {
    schemas: [LIST_RESPONSE],
    totalResults: matched.length,
    itemsPerPage: page.length,
    startIndex,
    Resources: page,
  });
}

/** The organization's directory read once for a list: its groups, and who is in each. */
async function directory(context: ScimContext) {
  const store = storeOf(context.options);
  const [users, groups] = await Promise.all([store.listScimUsers(context.organizationId), store.listScimGroups(context.organizationId)]);
  const live = users.filter((user) => user.organizationId === context.organizationId && user.deletedAt === null);
  const members = new Map(
    await Promise.all(groups.map(async (group) => [group.id, await store.listScimGroupMembers(context.organizationId, group.id)] as const)),
  );
  return { users: live, groups: groups.filter((group) => group.organizationId === context.organizationId), members };
}

/** `GET /Users`. */
export async function listScimUsers(context: ScimContext): Promise<ResponseInternal<string>> {
  // The paging and filter are checked before the directory is read.
  pageOf(context);
  const { users, groups, members } = await directory(context);
  const groupsOf = new Map<string, GroupRef[]>();
  for (const group of groups)
    for (const id of members.get(group.id) ?? [])
      groupsOf.set(id, [...(groupsOf.get(id) ?? []), { id: group.id, displayName: group.displayName }]);
  return listAnswer(
    context,
    users.map((user) => renderUser(context, user, groupsOf.get(user.id) ?? [])),
  );
}

/** `GET /Groups`. */
export async function listScimGroups(context: ScimContext): Promise<ResponseInternal<string>> {
  pageOf(context);
  const { users, groups, members } = await directory(context);
  const byId = new Map(users.map((user) => [user.id, user]));
  const refs = (group: { id: string }): MemberRef[] =>
    (members.get(group.id) ?? []).flatMap((id) => {
      const user = byId.get(id);
      return user ? [{ id: user.id, userName: user.userName }] : [];
    });
  return listAnswer(
    context,
    groups.map((group) => renderGroup(context, group, refs(group))),
  );
}
