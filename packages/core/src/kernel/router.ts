/**
 * The router: every operation of the instance (the spec's, then each enabled feature's), indexed once
 * from their declarations. The parser asks it which paths exist, the pipeline which operation a request
 * runs, `auth.api` the operation of a name, and telemetry reads the route template it found. There is no
 * other list of routes.
 *
 * @module kernel/router
 */
import { MethodNotAllowed } from "../errors.js";
import type { RouteMatch, RoutePaths } from "../http/request.js";
import type { RequestInternal } from "../types/internal.js";
import type { OperationDeclaration } from "../types/operation.js";

/** The last segment of a path that names a provider. */
const PROVIDER = ":provider";

/** The operations of an instance, by route and by name. */
export interface Router extends RoutePaths {
  /** The operation `request` runs. Throws `MethodNotAllowed` for a path that exists for another method. */
  operationOf(request: RequestInternal): OperationDeclaration;
  /** The operation named `name`; throws for a name no operation has (authlib's own bug, or a feature that is off). */
  named(name: string): OperationDeclaration;
  /** Every operation, in declaration order. */
  readonly operations: readonly OperationDeclaration[];
}

/** Indexes `operations`; throws a `TypeError` for two operations with one name, or one method and path. */
export function createRouter(operations: readonly OperationDeclaration[]): Router {
  const byRoute = new Map<string, OperationDeclaration>();
  const byName = new Map<string, OperationDeclaration>();
  const paths = new Set<string>();
  for (const operation of operations) {
    const key = `${operation.method} ${operation.path}`;
    if (byRoute.has(key)) throw new TypeError(`Two operations answer ${key}.`);
    if (byName.has(operation.name)) throw new TypeError(`Two operations are named "${operation.name}".`);
    byRoute.set(key, operation);
    byName.set(operation.name, operation);
    paths.add(operation.path);
  }
  // A path with its provider segment left out (`/callback`) reaches the operation that takes one, as the
  // spec's routes always did: the operation then refuses the missing provider itself.
  const candidates = (first: string, second: string | undefined) =>
    second === undefined ? [first, `${first}/${PROVIDER}`] : [`${first}/${second}`, `${first}/${PROVIDER}`];

  return {
    operations,
    match(method: string, first: string, second: string | undefined): RouteMatch | undefined {
      const known = candidates(first, second).filter((path) => paths.has(path));
      if (known.length === 0) return undefined;
      const route = known.find((path) => byRoute.has(`${method} ${path}`));
      const providerId = route?.endsWith(PROVIDER) || (!route && known[0]?.endsWith(PROVIDER)) ? second : undefined;
      return { action: first, route, providerId };
    },
    operationOf(request) {
      const operation = request.route === undefined ? undefined : byRoute.get(`${request.method} ${request.route}`);
      if (operation) return operation;
      throw new MethodNotAllowed(`${request.method} is not supported on ${request.path}.`);
    },
    named(name) {
      const operation = byName.get(name);
      if (!operation) throw new TypeError(`No operation is named "${name}".`);
      return operation;
    },
  };
}
