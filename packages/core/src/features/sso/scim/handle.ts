/**
 * The SCIM 2.0 endpoint of an organization (`<basePath>/scim/v2/…`): the token the request carries names the
 * organization, then the path and method name the resource operation. One handler for the subtree route
 * (`scim/*`), whatever its method: SCIM's paths are its own (RFC 7644 §3.2), not authlib's routes.
 *
 * @module features/sso/scim/handle
 */
import { MethodNotAllowed, ScimResourceNotFound } from "../../../errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../../types/internal.js";
import { scimCaller } from "./bearer.js";
import { discoveryList, serviceProviderConfig } from "./discovery.js";
import { createScimGroup, deleteScimGroup, getScimGroup, patchScimGroup, replaceScimGroup } from "./groups.js";
import { listScimGroups as listGroups, listScimUsers as listUsers } from "./list.js";
import type { ScimContext } from "./resource.js";
import { createScimUser, deleteScimUser, getScimUser, patchScimUser, replaceScimUser } from "./users.js";

type Answer = Promise<ResponseInternal<string>> | ResponseInternal<string>;

/** What each method does on a resource collection (`/Users`) and on one resource (`/Users/{id}`). */
interface ResourceRoutes {
  list(context: ScimContext): Answer;
  create(context: ScimContext): Answer;
  get(context: ScimContext, id: string): Answer;
  replace(context: ScimContext, id: string): Answer;
  patch(context: ScimContext, id: string): Answer;
  remove(context: ScimContext, id: string): Answer;
}

const RESOURCES: Readonly<Record<string, ResourceRoutes>> = {
  Users: {
    list: listUsers,
    create: createScimUser,
    get: getScimUser,
    replace: replaceScimUser,
    patch: patchScimUser,
    remove: deleteScimUser,
  },
  Groups: {
    list: listGroups,
    create: createScimGroup,
    get: getScimGroup,
    replace: replaceScimGroup,
    patch: patchScimGroup,
    remove: deleteScimGroup,
  },
};

function notAllowed(request: RequestInternal): MethodNotAllowed {
  return new MethodNotAllowed(`${request.method} is not supported on ${request.path}.`);
}

/** The answer of a resource path (`Users`, `Users/{id}`). */
function resourceRoute(context: ScimContext, routes: ResourceRoutes, id: string | undefined): Answer {
  const method = context.request.method;
  if (id === undefined) {
    if (method === "GET") return routes.list(context);
    if (method === "POST") return routes.create(context);
    throw notAllowed(context.request);
  }
  if (method === "GET") return routes.get(context, id);
  if (method === "PUT") return routes.replace(context, id);
  if (method === "PATCH") return routes.patch(context, id);
  if (method === "DELETE") return routes.remove(context, id);
  throw notAllowed(context.request);
}

/** The handler of every `scim/*` operation. */
export async function handleScim(options: InternalOptions, request: RequestInternal): Promise<ResponseInternal<string>> {
  const token = await scimCaller(options, request);
  const context: ScimContext = { options, request, organizationId: token.organizationId, tokenId: token.id };
  const [version, kind, id, ...more] = request.subPath ?? [];
  const unknown = () => new ScimResourceNotFound(`No SCIM endpoint at ${request.path}: the resources are under \`scim/v2/\`.`);
  if (version !== "v2" || kind === undefined || more.length > 0) throw unknown();
  const routes = Object.hasOwn(RESOURCES, kind) ? RESOURCES[kind] : undefined;
  if (routes) return resourceRoute(context, routes, id);
  if (kind !== "ServiceProviderConfig" && kind !== "Schemas" && kind !== "ResourceTypes") throw unknown();
  if (request.method !== "GET") throw notAllowed(request);
  if (kind === "ServiceProviderConfig") {
    if (id !== undefined) throw unknown();
    return serviceProviderConfig(context);
  }
  return discoveryList(context, kind, id);
}
