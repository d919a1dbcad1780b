/**
 * Walking JSON-like data without recursion: how deep it nests, a copy of it, and whether two values
 * would encode to the same JSON. Session data can come from a request (`POST /session`) or from an app's
 * callback, and `JSON.stringify` overflows the stack at a few thousand levels; these walks keep their own
 * stack on the heap and stop after {@link MAX_NODES} nodes, so no input can crash them.
 *
 * @module session/json-shape
 */

/** How many nodes one walk visits at most by default; past it a walk gives its "cannot tell" answer. */
export const MAX_NODES = 1_000_000;

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === "object" && value !== null;
}

/**
 * True when `value` nests deeper than `maxDepth` containers (objects or arrays; a primitive has depth
 * 0, `{a: 1}` depth 1), or is too large to walk (more than `maxNodes` containers). Stops at the first container past a limit.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number, maxNodes = MAX_NODES): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (!isContainer(current)) continue;
    if (depth + 1 > maxDepth || ++visited > maxNodes) return true;
    for (const child of Object.values(current)) if (isContainer(child)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/** What `JSON.stringify` would write for `value` one level down: `toJSON()` applied, non-JSON values as `undefined`. */
function jsonValue(value: unknown): unknown {
  if (isContainer(value) && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  if (typeof value === "function" || typeof value === "symbol" || value === undefined) return undefined;
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  return value;
}

/** How many keys of an object `JSON.stringify` would write. */
function countJsonKeys(object: Record<string, unknown>): number {
  let count = 0;
  for (const key of Object.keys(object)) if (jsonValue(object[key]) !== undefined) count++;
  return count;
}

const isEnumerableOwn = (object: object, key: string): boolean => Object.prototype.propertyIsEnumerable.call(object, key);

/**
 * True when `a` and `b` would serialise to the same JSON, up to key order. Values JSON cannot hold
 * (BigInt) and walks past `maxNodes` pairs count as different: "different" only costs a re-issue.
 */
export function sameJson(a: unknown, b: unknown, maxNodes = MAX_NODES): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > maxNodes) return false;
    const [rawLeft, rawRight] = stack.pop() as [unknown, unknown];
    const left = jsonValue(rawLeft);
    const right = jsonValue(rawRight);
    if (typeof left === "bigint" || typeof right === "bigint") return false;
    if (!isContainer(left) || !isContainer(right)) {
      if (left !== right) return false;
      continue;
    }
    if (Array.isArray(left) !== Array.isArray(right)) return false;
    if (Array.isArray(left) && Array.isArray(right)) {
      if (left.length !== right.length) return false;
      // In arrays, JSON writes undefined and functions as null.
      for (let i = 0; i < left.length; i++) stack.push([jsonValue(left[i]) ?? null, jsonValue(right[i]) ?? null]);
      continue;
    }
    const leftObject = left as Record<string, unknown>;
    const rightObject = right as Record<string, unknown>;
    // The same written keys on both sides, without sorting them (this runs on every session check): each
    // key the left writes is an own enumerable key of the right, and the right writes as many.
    let written = 0;
    for (const key of Object.keys(leftObject)) {
      const value = leftObject[key];
      if (jsonValue(value) === undefined) continue;
      if (!isEnumerableOwn(rightObject, key)) return false;
      written++;
      stack.push([value, rightObject[key]]);
    }
    if (countJsonKeys(rightObject) !== written) return false;
  }
  return true;
}

/** What {@link flatCopy} answers for a container that holds a container (the walk copies it). */
const NOT_FLAT = Symbol("not flat");

/**
 * {@link copyJson} of a container none of whose values is a container (most session tokens: claims of
 * strings and numbers), in one pass without the walk's bookkeeping; `NOT_FLAT` when a value is one.
 */
function flatCopy(value: Record<string, unknown> | unknown[], maxNodes: number): unknown {
  const keys = Object.keys(value);
  if (keys.length > maxNodes) return undefined;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const key of keys) {
    const child = (value as Record<string, unknown>)[key];
    if (isContainer(child)) return NOT_FLAT;
    (copy as Record<string, unknown>)[key] = child;
  }
  return copy;
}

/**
 * A deep copy of JSON-like `value` (plain objects, arrays, primitives; anything else is kept by
 * reference), or `undefined` when it has more than `maxNodes` nodes or a cycle. Used to remember
 * a token before a callback that may change it in place.
 */
export function copyJson(value: unknown, maxNodes = MAX_NODES): unknown {
  if (!isContainer(value)) return value;
  const flat = flatCopy(value, maxNodes);
  if (flat !== NOT_FLAT) return flat;
  const root: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  const stack: Array<{ from: Record<string, unknown> | unknown[]; to: Record<string, unknown> | unknown[]; path: Set<object> }> = [
    { from: value, to: root, path: new Set([value]) },
  ];
  let visited = 0;
  while (stack.length > 0) {
    const { from, to, path } = stack.pop() as (typeof stack)[number];
    for (const [key, child] of Object.entries(from)) {
      if (++visited > maxNodes) return undefined;
      const plain =
        isContainer(child) &&
        (Array.isArray(child) || Object.getPrototypeOf(child) === Object.prototype || Object.getPrototypeOf(child) === null);
      if (!plain) {
        (to as Record<string, unknown>)[key] = child;
        continue;
      }
      if (path.has(child)) return undefined;
      const copy: Record<string, unknown> | unknown[] = Array.isArray(child) ? [] : {};
      (to as Record<string, unknown>)[key] = copy;
      stack.push({ from: child, to: copy, path: nestedPath(path, child) });
    }
  }
  return root;
}

/**
 * The ancestors of a child: `path` plus `child`. Copying the set per level would be quadratic on deep
 * data, so deep paths (past 64 levels) share one growing set; a cycle is then still found, and a value
 * shared by two branches (a DAG) may be reported as a cycle: `undefined` just means "cannot tell".
 */
function nestedPath(path: Set<object>, child: object): Set<object> {
  if (path.size < 64) return new Set(path).add(child);
  return path.add(child);
}
