/**
 * SCIM filters (RFC 7644 §3.4.2.2): parsed by `scim2-parse-filter` (never a regular expression of ours),
 * evaluated here over a resource as its client sees it. Attribute names are matched without case; strings
 * are compared without case except the attributes RFC 7643 declares case-exact (`id`, `externalId`,
 * `meta.version`), which is where this evaluator differs from the parser's own `filter` (a case-exact
 * compare of every string). `pr` is true only for a value that is there and not empty (RFC 7644 §3.4.2.2),
 * where the parser's own `filter` takes `null` and `""` as present.
 *
 * @module features/sso/scim/filter
 */
import { type Filter, parse } from "scim2-parse-filter";
import { ScimInvalidRequest } from "../../../errors.js";
import type { ScimJson, ScimObject } from "../../../types/scim.js";
import { attributePath } from "./schema.js";

export type { Filter } from "scim2-parse-filter";

/** The longest filter taken: a directory's filters are one or two comparisons. */
export const MAX_FILTER_LENGTH = 1000;

/** An `invalidFilter` refusal. */
export function invalidFilter(message: string): ScimInvalidRequest {
  const error = new ScimInvalidRequest(message);
  error.scimType = "invalidFilter";
  return error;
}

/** The parsed filter, or `ScimInvalidRequest` (`invalidFilter`) for one that does not parse or is too long. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`A filter may be at most ${MAX_FILTER_LENGTH} characters.`);
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch {
    throw invalidFilter("The filter does not parse (RFC 7644 §3.4.2.2): check its quotes, operators and parentheses.");
  }
  // The parser takes some text it cannot read as a filter without an operator.
  if (typeof parsed !== "object" || parsed === null || typeof parsed.op !== "string")
    throw invalidFilter("The filter does not parse (RFC 7644 §3.4.2.2).");
  return parsed;
}

/** The attributes whose strings compare with their case (RFC 7643 §3.1, §4.1.1). */
const CASE_EXACT = new Set(["id", "externalid", "meta.version"]);

type Comparable = string | number | boolean | null;

/** The value of `name` in `object`, its key found without case. */
export function member(object: ScimObject, name: string): ScimJson | undefined {
  if (Object.hasOwn(object, name)) return object[name];
  const lower = name.toLowerCase();
  const key = Object.keys(object).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : object[key];
}

/** The values at `steps` below `value`: a multi-valued attribute gives each of its elements' values. */
function valuesAt(value: ScimJson | undefined, steps: readonly string[]): ScimJson[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((element) => valuesAt(element, steps));
  if (steps.length === 0) return [value];
  if (typeof value !== "object" || value === null) return [];
  return valuesAt(member(value, steps[0] as string), steps.slice(1));
}

/** True when `value` is there and not empty. */
function present(value: ScimJson): boolean {
  if (value === null || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.values(value).some(present);
  return true;
}

/** `actual` compared with `expected` by `op`, strings folded to lower case unless `exact`. */
function compare(op: string, actual: ScimJson, expected: Comparable, exact: boolean): boolean {
  if (typeof actual === "object" && actual !== null) return false;
  const fold = (value: Comparable) => (typeof value === "string" && !exact ? value.toLowerCase() : value);
  const a = fold(actual);
  const b = fold(expected);
  switch (op) {
    case "eq":
      return a === b;
    case "ne":
      return a !== b;
    case "co":
      return typeof a === "string" && typeof b === "string" && a.includes(b);
    case "sw":
      return typeof a === "string" && typeof b === "string" && a.startsWith(b);
    case "ew":
      return typeof a === "string" && typeof b === "string" && a.endsWith(b);
    default:
      return ordered(op, a, b);
  }
}

/** `gt`, `ge`, `lt`, `le` between two strings or two numbers (booleans and `null` have no order: RFC 7644 §3.4.2.2). */
function ordered(op: string, a: Comparable, b: Comparable): boolean {
  if (!((typeof a === "string" && typeof b === "string") || (typeof a === "number" && typeof b === "number"))) return false;
  if (op === "gt") return a > b;
  if (op === "ge") return a >= b;
  if (op === "lt") return a < b;
  return a <= b;
}

/** True when `resource` (a resource, or an element of a multi-valued attribute) matches `filter`. */
export function matches(resource: ScimObject, filter: Filter): boolean {
  switch (filter.op) {
    case "and":
      return filter.filters.every((inner) => matches(resource, inner));
    case "or":
      return filter.filters.some((inner) => matches(resource, inner));
    case "not":
      return !matches(resource, filter.filter);
    case "[]": {
      const elements = valuesAt(resource, attributePath(filter.attrPath));
      return elements.some(
        (element) => typeof element === "object" && element !== null && !Array.isArray(element) && matches(element, filter.valFilter),
      );
    }
    case "pr":
      return valuesAt(resource, attributePath(filter.attrPath)).some(present);
    default: {
      const steps = attributePath(filter.attrPath);
      const exact = CASE_EXACT.has(steps.join(".").toLowerCase());
      // An absent attribute matches no comparison, `ne` included (as the parser's own `filter` has it).
      return valuesAt(resource, steps).some((value) => compare(filter.op, value, filter.compValue, exact));
    }
  }
}
