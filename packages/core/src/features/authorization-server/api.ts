/**
 * The authorization server's methods of `auth.api` (`FeatureDefinition.api`): the user's grants, through
 * their declarations, and the revocation check `protectResource` asks (server work, no request).
 *
 * @module features/authorization-server/api
 */
import { UnknownAction } from "../../errors.js";
import type { ApiRunner } from "../../types/operation.js";
import * as declared from "./operations.js";
import type { AuthorizationServerApi } from "./types.js";

/** The method `name` of `AuthorizationServerApi`, made from the kernel's runner. */
type Maker<K extends keyof AuthorizationServerApi> = (run: ApiRunner) => AuthorizationServerApi[K];

export const authorizationServerApi: { [K in keyof AuthorizationServerApi]: Maker<K> } = {
  listGrants: (run) => async (request) => (await run.data(request, declared.listGrants)).grants,
  revokeGrant: (run) => async (request, input) => void (await run.call(request, declared.revokeGrant, { ...input })),
  isGrantRevoked: (run) => (grantId) =>
    run.server(async (options) => {
      if (options.config.authorizationServer === undefined)
        throw new UnknownAction("isGrantRevoked needs the authorization server on (`authorizationServer: {}` in the configuration).");
      const [{ storeOf }, { isLive }] = await Promise.all([import("./store.js"), import("./grants.js")]);
      const grant = await storeOf(options).getOAuthGrant(grantId);
      return !grant || !isLive(options, grant);
    }),
};
