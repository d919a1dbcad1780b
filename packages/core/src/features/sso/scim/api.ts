/**
 * SCIM provisioning's methods of `auth.api` (`FeatureDefinition.api`), through their declarations.
 *
 * @module features/sso/scim/api
 */
import type { ApiRunner } from "../../../types/operation.js";
import * as declared from "./operations.js";
import type { ScimApi } from "./types.js";

type Maker<K extends keyof ScimApi> = (run: ApiRunner) => ScimApi[K];

/** The `auth.api` names of SCIM provisioning: what `kernel/features.ts` lists for the `sso` option. */
export const scimApiNames = ["createScimToken", "listScimTokens", "revokeScimToken"] as const;

export const scimApi: { [K in keyof ScimApi]: Maker<K> } = {
  createScimToken: (run) => (request, input) => run.data(request, declared.createScimToken, { ...input }),
  listScimTokens: (run) => async (request, input) => (await run.data(request, declared.listScimTokens, { ...input })).scimTokens,
  revokeScimToken: (run) => async (request, input) => void (await run.call(request, declared.revokeScimToken, { ...input })),
};
