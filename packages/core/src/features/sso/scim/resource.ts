/**
 * What SCIM resources share: the request's body checked as a resource (a JSON object, not nested past a
 * bound), the `meta` block with its version (`ETag`, RFC 7644 §3.14), the `If-Match` precondition, and the
 * attributes a client may not set (`id`, `meta`, and each resource's read-only ones).
 *
 * @module features/sso/scim/resource
 */
import { ScimInvalidRequest, ScimPreconditionFailed } from "../../../errors.js";
import { nestsDeeperThan } from "../../../session/json-shape.js";
import type { InternalOptions, RequestInternal } from "../../../types/internal.js";
import type { ScimJson, ScimObject } from "../../../types/scim.js";

/** How deep a resource's JSON may nest: SCIM's deepest is an extension's complex attribute (3). */
const MAX_DEPTH = 8;

/** The longest string attribute kept (a `userName`, a `displayName`, an id). */
export const MAX_NAME_LENGTH = 256;

/** What the caller acts on: the request, its organization, and the token's public id (for audit rows). */
export interface ScimContext {
  options: InternalOptions;
  request: RequestInternal;
  organizationId: string;
  tokenId: string;
}

/** An `invalidSyntax` (or another `scimType`) refusal. */
export function badRequest(message: string, scimType = "invalidSyntax"): ScimInvalidRequest {
  const error = new ScimInvalidRequest(message);
  error.scimType = scimType;
  return error;
}

/** The body as a resource: a JSON object (a larger body than the bound, or none, reads as empty), not nested too deep. */
export function resourceBody(request: RequestInternal): ScimObject {
  const body = request.body as ScimObject;
  if (Object.keys(body).length === 0) throw badRequest("The body must be a JSON object (`application/scim+json`) of at most 64 KiB.");
  if (nestsDeeperThan(body, MAX_DEPTH)) throw badRequest(`The body nests deeper than ${MAX_DEPTH} levels.`);
  return body;
}

/** The weak entity tag of a version. */
export const etagOf = (version: number) => `W/"${version}"`;

/** `meta` of a resource (RFC 7643 §3.1). */
export function metaOf(
  context: ScimContext,
  type: "User" | "Group",
  record: { id: string; version: number; createdAt: Date; updatedAt: Date },
): ScimObject {
  return {
    resourceType: type,
    created: record.createdAt.toISOString(),
    lastModified: record.updatedAt.toISOString(),
    location: `${context.options.authUrl}/scim/v2/${type}s/${encodeURIComponent(record.id)}`,
    version: etagOf(record.version),
  };
}

/** `ScimPreconditionFailed` when the request's `If-Match` names none of the resource's current version (or `*`). */
export function checkIfMatch(request: RequestInternal, version: number): void {
  const wanted = request.headers.get("if-match");
  if (wanted === null) return;
  const tags = wanted.split(",").map((tag) => tag.trim());
  if (!tags.includes("*") && !tags.includes(etagOf(version)) && !tags.includes(`"${version}"`))
    throw new ScimPreconditionFailed("The resource changed since it was read (`If-Match`): read it again, then retry.");
}

/** A string attribute of at most {@link MAX_NAME_LENGTH} characters, or `undefined` when absent (`null` too). */
export function optionalString(value: ScimJson | undefined, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.length > MAX_NAME_LENGTH)
    throw badRequest(`\`${name}\` must be a string of at most ${MAX_NAME_LENGTH} characters.`, "invalidValue");
  return value;
}

/** A required, non-empty string attribute. */
export function requiredString(value: ScimJson | undefined, name: string): string {
  const given = optionalString(value, name)?.trim();
  if (!given) throw badRequest(`\`${name}\` is required: a string of 1 to ${MAX_NAME_LENGTH} characters.`, "invalidValue");
  return given;
}

/** `object` without the keys (matched without case) in `drop`. */
export function without(object: ScimObject, drop: readonly string[]): ScimObject {
  const lower = new Set(drop.map((key) => key.toLowerCase()));
  return Object.fromEntries(Object.entries(object).filter(([key]) => !lower.has(key.toLowerCase())));
}

/** The value of `name` in `object`, its key found without case. */
export function field(object: ScimObject, name: string): ScimJson | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(object).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : object[key];
}
