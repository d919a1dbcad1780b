/**
 * SCIM PATCH (RFC 7644 §3.5.2) over a resource as JSON: `add`, `replace` and `remove`, with or without a
 * path, on single-valued, complex and multi-valued attributes, value filters included. The operation name
 * is read without case (Entra ID sends `"Replace"`). The resource given is never changed: the patched copy
 * is returned, for the caller to check against the resource's rules and store, or to drop whole when one
 * operation fails (a PATCH is all or nothing, §3.5.2).
 *
 * Where the RFC leaves a choice: an `add` or `replace` whose value filter selects nothing, with a
 * sub-attribute and a filter of `eq` comparisons only (`emails[type eq "work"].value`), adds the element
 * the filter describes (what Entra ID expects of a first work address); any other filter that selects
 * nothing is `noTarget`. A `remove` of `members` with a value (Entra's `[{ "value": "<id>" }]`) removes
 * those members.
 *
 * @module features/sso/scim/patch
 */
import { ScimInvalidRequest } from "../../../errors.js";
import type { ScimJson, ScimObject } from "../../../types/scim.js";
import { type Filter, matches } from "./filter.js";
import { invalidPath, type PatchPath, parsePatchPath } from "./patch-path.js";
import { extensionSchema, PATCH_OP } from "./schema.js";

/** One operation of a PATCH request, its path parsed. */
export interface PatchOperation {
  op: "add" | "replace" | "remove";
  path?: PatchPath;
  value?: ScimJson;
}

/** The most operations one PATCH request may carry. */
export const MAX_OPERATIONS = 1000;

/** An `invalidValue` (or another `scimType`) refusal. */
export function invalidValue(message: string, scimType = "invalidValue"): ScimInvalidRequest {
  const error = new ScimInvalidRequest(message);
  error.scimType = scimType;
  return error;
}

const isObject = (value: ScimJson | undefined): value is ScimObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The operations of a PATCH request's body, or `ScimInvalidRequest` for a body that is not one. */
export function parsePatchRequest(body: Record<string, unknown>): PatchOperation[] {
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP))
    throw invalidValue(`A PATCH body's \`schemas\` must hold "${PATCH_OP}".`, "invalidSyntax");
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > MAX_OPERATIONS)
    throw invalidValue(`A PATCH body's \`Operations\` must be a list of 1 to ${MAX_OPERATIONS} operations.`, "invalidSyntax");
  return operations.map((operation: unknown) => {
    if (!isObject(operation as ScimJson)) throw invalidValue("Each PATCH operation must be an object.", "invalidSyntax");
    const { op, path, value } = operation as ScimObject;
    const name = typeof op === "string" ? op.toLowerCase() : undefined;
    if (name !== "add" && name !== "replace" && name !== "remove")
      throw invalidValue('A PATCH operation\'s `op` must be "add", "replace" or "remove".', "invalidSyntax");
    if (path !== undefined && typeof path !== "string") throw invalidPath("A PATCH operation's `path` must be a string.");
    if (name !== "remove" && value === undefined) throw invalidValue(`A PATCH "${name}" needs a \`value\`.`);
    if (name === "remove" && path === undefined) throw invalidValue('A PATCH "remove" needs a `path`.', "noTarget");
    if (path === undefined && !isObject(value)) throw invalidValue(`A PATCH "${name}" without a path takes an object of attributes.`);
    return { op: name, ...(path === undefined ? {} : { path: parsePatchPath(path) }), ...(value === undefined ? {} : { value }) };
  });
}

/** The key of `name` in `object`, found without case; `name` itself when there is none. */
function keyOf(object: ScimObject, name: string): string {
  if (Object.hasOwn(object, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lower) ?? name;
}

/** Two JSON values alike (an element already in a multi-valued attribute is not added twice). */
function same(a: ScimJson, b: ScimJson): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i] as ScimJson));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && same(a[key] as ScimJson, b[key] as ScimJson))
  );
}

/** Adds `value` to `object[name]` (§3.5.2.1): appended to a multi-valued one, merged into a complex one, set otherwise. */
function addTo(object: ScimObject, name: string, value: ScimJson): void {
  const key = keyOf(object, name);
  const existing = object[key];
  if (Array.isArray(existing) || Array.isArray(value)) {
    const list = Array.isArray(existing) ? [...existing] : existing === undefined || existing === null ? [] : [existing];
    for (const element of Array.isArray(value) ? value : [value]) if (!list.some((known) => same(known, element))) list.push(element);
    object[key] = list;
  } else if (isObject(existing) && isObject(value)) {
    for (const [inner, innerValue] of Object.entries(value)) existing[keyOf(existing, inner)] = innerValue;
  } else {
    object[key] = value;
  }
}

/** The object a path's attribute lives in: the resource, or its extension's object (made when `create`). */
function holder(resource: ScimObject, path: PatchPath, create: boolean): ScimObject | undefined {
  if (path.extension === undefined) return resource;
  const key = keyOf(resource, path.extension);
  const existing = resource[key];
  if (isObject(existing)) return existing;
  if (!create) return undefined;
  const made: ScimObject = {};
  resource[key] = made;
  return made;
}

/** The `eq` comparisons a filter is made of (`type eq "work" and primary eq true`), or `undefined` for any other filter. */
function equalities(filter: Filter): ScimObject | undefined {
  if (filter.op === "eq" && !filter.attrPath.includes(".") && !filter.attrPath.includes(":"))
    return { [filter.attrPath]: filter.compValue };
  if (filter.op !== "and") return undefined;
  const parts = filter.filters.map(equalities);
  return parts.every((part) => part !== undefined) ? Object.assign({}, ...parts) : undefined;
}

/** The elements of `object[attribute]` the filter selects (a multi-valued attribute of complex values). */
function selected(object: ScimObject, path: PatchPath & { filter: Filter }): { list: ScimJson[]; hits: ScimObject[] } {
  const existing = object[keyOf(object, path.attribute)];
  const list = Array.isArray(existing) ? existing : [];
  return { list, hits: list.filter((element): element is ScimObject => isObject(element) && matches(element, path.filter)) };
}

/** `noTarget`: the filter selected nothing. */
function noTarget(path: PatchPath): ScimInvalidRequest {
  return invalidValue(`No value of \`${path.attribute}\` matches the path's filter.`, "noTarget");
}

/** An `add` or `replace` through a value filter (§3.5.2.1, §3.5.2.3). */
function setFiltered(object: ScimObject, path: PatchPath & { filter: Filter }, value: ScimJson, replace: boolean): void {
  const { list, hits } = selected(object, path);
  const sub = path.subAttribute;
  if (hits.length === 0) {
    const described = sub === undefined ? undefined : equalities(path.filter);
    if (!described || sub === undefined) throw noTarget(path);
    object[keyOf(object, path.attribute)] = [...list, { ...described, [sub]: value }];
    return;
  }
  for (const hit of hits) {
    if (sub !== undefined) hit[keyOf(hit, sub)] = value;
    else if (!isObject(value)) throw invalidValue(`A value of \`${path.attribute}\` must be an object.`);
    else if (replace) {
      for (const key of Object.keys(hit)) delete hit[key];
      Object.assign(hit, value);
    } else for (const [inner, innerValue] of Object.entries(value)) hit[keyOf(hit, inner)] = innerValue;
  }
}

/** `add` (§3.5.2.1). */
function add(resource: ScimObject, path: PatchPath | undefined, value: ScimJson): void {
  if (path === undefined) {
    for (const [name, inner] of Object.entries(value as ScimObject)) {
      const extension = extensionSchema(name);
      if (extension && isObject(inner)) for (const [key, v] of Object.entries(inner)) add(resource, { extension, attribute: key }, v);
      else addTo(resource, name, inner);
    }
    return;
  }
  const object = holder(resource, path, true) as ScimObject;
  if (path.filter) setFiltered(object, { ...path, filter: path.filter }, value, false);
  else if (path.subAttribute === undefined) addTo(object, path.attribute, value);
  else addTo(parentOf(object, path), path.subAttribute, value);
}

/** The complex value of `path.attribute` (made when absent), for a path with a sub-attribute. */
function parentOf(object: ScimObject, path: PatchPath): ScimObject {
  const key = keyOf(object, path.attribute);
  const existing = object[key];
  if (isObject(existing)) return existing;
  if (existing !== undefined && existing !== null)
    throw invalidPath(`\`${path.attribute}\` is not a complex attribute: \`${path.attribute}.${path.subAttribute}\` names nothing.`);
  const made: ScimObject = {};
  object[key] = made;
  return made;
}

/** `replace` (§3.5.2.3). */
function replace(resource: ScimObject, path: PatchPath | undefined, value: ScimJson): void {
  if (path === undefined) {
    for (const [name, inner] of Object.entries(value as ScimObject)) {
      const extension = extensionSchema(name);
      if (extension && isObject(inner)) for (const [key, v] of Object.entries(inner)) replace(resource, { extension, attribute: key }, v);
      else resource[keyOf(resource, name)] = inner;
    }
    return;
  }
  const object = holder(resource, path, true) as ScimObject;
  if (path.filter) setFiltered(object, { ...path, filter: path.filter }, value, true);
  else if (path.subAttribute === undefined) object[keyOf(object, path.attribute)] = value;
  else {
    const parent = parentOf(object, path);
    parent[keyOf(parent, path.subAttribute)] = value;
  }
}

/** `remove` (§3.5.2.2). */
function remove(resource: ScimObject, path: PatchPath, value: ScimJson | undefined): void {
  const object = holder(resource, path, false);
  if (!object) return;
  const key = keyOf(object, path.attribute);
  if (path.filter) {
    const { list, hits } = selected(object, { ...path, filter: path.filter });
    if (path.subAttribute !== undefined) {
      for (const hit of hits) delete hit[keyOf(hit, path.subAttribute)];
      return;
    }
    const kept = list.filter((element) => !hits.includes(element as ScimObject));
    if (kept.length === 0) delete object[key];
    else object[key] = kept;
    return;
  }
  const existing = object[key];
  if (path.subAttribute !== undefined) {
    if (isObject(existing)) delete existing[keyOf(existing, path.subAttribute)];
    else if (Array.isArray(existing))
      for (const element of existing) if (isObject(element)) delete element[keyOf(element, path.subAttribute)];
    return;
  }
  // Entra ID removes members by value: `{ "op": "Remove", "path": "members", "value": [{ "value": "<id>" }] }`.
  if (Array.isArray(existing) && value !== undefined) {
    const gone = Array.isArray(value) ? value : [value];
    const kept = existing.filter(
      (element) =>
        !gone.some((g) => same(g, element) || (isObject(g) && isObject(element) && g.value !== undefined && g.value === element.value)),
    );
    if (kept.length === 0) delete object[key];
    else object[key] = kept;
    return;
  }
  delete object[key];
}

/** `resource` with `operations` applied in order; the resource given is not changed. Throws `ScimInvalidRequest`. */
export function applyPatch(resource: ScimObject, operations: readonly PatchOperation[]): ScimObject {
  const patched = structuredClone(resource);
  for (const operation of operations) {
    if (operation.op === "remove") remove(patched, operation.path as PatchPath, operation.value);
    else if (operation.op === "add") add(patched, operation.path, operation.value as ScimJson);
    else replace(patched, operation.path, operation.value as ScimJson);
  }
  return patched;
}
