/**
 * The router: every operation of the instance (the spec's, then each enabled feature's), indexed once
 * from their declarations. The parser asks it which paths exist, the pipeline which operation a request
 * runs, `auth.api` the operation of a name, and telemetry reads the route template it found. There is no
 * other list of routes.
 *
 * @module kernel/router
 */
import { MethodNotAllowed, UnknownAction } from "../errors.js";
import type { RoutePaths } from "../http/request.js";
import type { RequestInternal } from "../types/internal.js";
import type { OperationDeclaration } from "../types/operation.js";

/** The last segment of a path that names a provider. */
const PROVIDER = ":provider";
/** The last segment of a path that answers every deeper path under its first segment (`scim/*`). */
const SUBTREE = "*";

/** The operations of an instance, by route and by name. */
export interface Router extends RoutePaths {
  /** The operation `request` runs. Throws `MethodNotAllowed` for a path that exists for another method. */
  operationOf(request: RequestInternal): OperationDeclaration;
  /** The operation named `name`; `UnknownAction` for a name no operation has (a feature that is off, or a typo). */
  named(name: string): OperationDeclaration;
  /** True when an operation is named `name`. */
  has(name: string): boolean;
  /**
   * The cross-origin operations of the path `first[/second]` (`OperationDeclaration.crossOrigin`), whose
   * CORS preflight the pipeline answers; empty for a path without any.
   */
  crossOrigin(first: string, second: string | undefined): OperationDeclaration[];
  /** Every operation, in declaration order. */
  readonly operations: readonly OperationDeclaration[];
}

/** The operations of one path, by method. */
interface PathEntry {
  path: string;
  byMethod: Map<string, OperationDeclaration>;
}

/** The paths that start with one segment: itself, its fixed second segments, its provider route. */
interface FirstSegment {
  exact?: PathEntry;
  provider?: PathEntry;
  /** The route that answers every path below the first segment (a protocol with its own paths: SCIM). */
  subtree?: PathEntry;
  fixed: Map<string, PathEntry>;
}

/**
 * Indexes `operations`; throws a `TypeError` for two operations with one name, or one method and path.
 * `off`: the operations of the features that are off, each with the option that turns its feature on
 * (`FeatureDefinition.turnedOnBy`), for the refusal of a call by name.
 */
export function createRouter(operations: readonly OperationDeclaration[], off: ReadonlyMap<string, string> = new Map()): Router {
  const byName = new Map<string, OperationDeclaration>();
  const byFirst = new Map<string, FirstSegment>();
  for (const operation of operations) {
    if (byName.has(operation.name)) throw new TypeError(`Two operations are named "${operation.name}".`);
    byName.set(operation.name, operation);
    const entry = pathEntry(byFirst, operation.path);
    if (entry.byMethod.has(operation.method)) throw new TypeError(`Two operations answer ${operation.method} ${operation.path}.`);
    entry.byMethod.set(operation.method, operation);
  }
  return {
    operations,
    // The hot path (every request): two map reads and one object, no string built.
    match(method, first, second, deeper = false) {
      const room = byFirst.get(first);
      if (!room) return undefined;
      // A subtree route (`scim/*`) takes every path below its first segment that no fixed route names; only it
      // takes a path of more than two segments.
      if (room.subtree && second !== undefined && (deeper || !room.fixed.has(second))) {
        const route = room.subtree.byMethod.has(method) ? room.subtree.path : undefined;
        return { action: first, route };
      }
      if (deeper) return undefined;
      // A path with its provider segment left out (`/callback`) reaches the operation that takes one, as the
      // spec's routes always did: the operation then refuses the missing provider itself.
      const named = second === undefined ? room.exact : room.fixed.get(second);
      const entry = named?.byMethod.has(method) ? named : room.provider?.byMethod.has(method) ? room.provider : undefined;
      if (entry) return { action: first, route: entry.path, providerId: entry === room.provider ? second : undefined };
      const known = named ?? room.provider;
      return known ? { action: first, route: undefined, providerId: known === room.provider ? second : undefined } : undefined;
    },
    operationOf(request) {
      const operation = request.route === undefined ? undefined : routeEntry(byFirst, request.route)?.byMethod.get(request.method);
      if (operation) return operation;
      throw new MethodNotAllowed(`${request.method} is not supported on ${request.path}.`);
    },
    has: (name) => byName.has(name),
    crossOrigin(first, second) {
      const room = byFirst.get(first);
      const entry = second === undefined ? room?.exact : (room?.fixed.get(second) ?? room?.provider);
      return [...(entry?.byMethod.values() ?? [])].filter((operation) => operation.crossOrigin !== undefined);
    },
    named(name) {
      const operation = byName.get(name);
      if (operation) return operation;
      const option = off.get(name);
      throw new UnknownAction(
        option === undefined
          ? `No operation "${name}" in this configuration: its feature is off or it does not exist.`
          : `No operation "${name}" in this configuration: its feature is off (set \`${option}\` to turn it on).`,
      );
    },
  };
}

/** The entry of `path` (`first`, `first/second`, `first/:provider` or `first/*`), made when new. */
function pathEntry(byFirst: Map<string, FirstSegment>, path: string): PathEntry {
  const [first = "", second] = path.split("/");
  const room = byFirst.get(first) ?? { fixed: new Map<string, PathEntry>() };
  byFirst.set(first, room);
  const entry = (second === undefined ? room.exact : slotOf(room, second)) ?? {
    path,
    byMethod: new Map<string, OperationDeclaration>(),
  };
  if (second === undefined) room.exact = entry;
  else if (second === PROVIDER) room.provider = entry;
  else if (second === SUBTREE) room.subtree = entry;
  else room.fixed.set(second, entry);
  return entry;
}

/** The entry of a second segment: the provider route, the subtree route or a fixed one. */
function slotOf(room: FirstSegment, second: string): PathEntry | undefined {
  if (second === PROVIDER) return room.provider;
  if (second === SUBTREE) return room.subtree;
  return room.fixed.get(second);
}

/** The entry of a declared route template. */
function routeEntry(byFirst: Map<string, FirstSegment>, route: string): PathEntry | undefined {
  const slash = route.indexOf("/");
  const room = byFirst.get(slash === -1 ? route : route.slice(0, slash));
  if (!room) return undefined;
  if (slash === -1) return room.exact;
  return slotOf(room, route.slice(slash + 1));
}
