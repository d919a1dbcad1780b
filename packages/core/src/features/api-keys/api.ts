/**
 * API keys' methods of `auth.api` (`FeatureDefinition.api`), through their declarations.
 *
 * @module features/api-keys/api
 */
import type { ApiRunner } from "../../types/operation.js";
import * as declared from "./operations.js";
import type { ApiKeysApi } from "./types.js";

type Maker<K extends keyof ApiKeysApi> = (run: ApiRunner) => ApiKeysApi[K];

export const apiKeysApi: { [K in keyof ApiKeysApi]: Maker<K> } = {
  createApiKey: (run) => (request, input) => run.data(request, declared.createApiKey, { ...input }),
  listApiKeys: (run) => async (request, input) => (await run.data(request, declared.listApiKeys, { ...input })).apiKeys,
  revokeApiKey: (run) => async (request, input) => void (await run.call(request, declared.revokeApiKey, { ...input })),
  rotateApiKey: (run) => (request, input) => run.data(request, declared.rotateApiKey, { ...input }),
  verifyApiKey: (run) => (request, input) => run.data(request, declared.verifyApiKey, { ...input }),
};
