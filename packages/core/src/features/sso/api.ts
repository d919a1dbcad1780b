/**
 * Enterprise SSO's methods of `auth.api` (`FeatureDefinition.api`), through their declarations.
 *
 * @module features/sso/api
 */
import type { ApiRunner } from "../../types/operation.js";
import * as declared from "./operations.js";
import type { SsoApi } from "./types.js";

type Maker<K extends keyof SsoApi> = (run: ApiRunner) => SsoApi[K];

export const ssoApi: { [K in keyof SsoApi]: Maker<K> } = {
  createSsoConnection: (run) => (request, input) => run.data(request, declared.createSsoConnection, { ...input }),
  updateSsoConnection: (run) => (request, input) => run.data(request, declared.updateSsoConnection, { ...input }),
  deleteSsoConnection: (run) => async (request, input) => void (await run.call(request, declared.deleteSsoConnection, { ...input })),
  listSsoConnections: (run) => async (request, input) => (await run.data(request, declared.listSsoConnections, { ...input })).connections,
  ssoDiscover: (run) => (request, input) => run.data(request, declared.ssoDiscover, { ...input }),
};
