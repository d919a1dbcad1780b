/**
 * The adapter as API keys use it: the methods they need, typed as present (the start-up check proved them,
 * `FeatureDefinition.adapterNeeds`).
 *
 * @module features/api-keys/store
 */
import type { Adapter } from "../../types/adapters.js";
import type { ApiKeyAdapterMethods } from "../../types/api-keys.js";
import type { ConfigOptions } from "../../types/internal.js";

/** The API-key methods, every one present. */
export type ApiKeyStore = Required<ApiKeyAdapterMethods>;

/** Every method API keys need, in the order the start-up check names the missing ones. */
export const apiKeyMethods = [
  "createApiKey",
  "getApiKey",
  "listApiKeysByUser",
  "listApiKeysByOrganization",
  "revokeApiKey",
  "revokeApiKeysByUser",
  "touchApiKey",
] as const satisfies ReadonlyArray<keyof Adapter>;

/** The adapter's API-key methods (present: checked at start-up). */
export function storeOf(options: Pick<ConfigOptions, "adapter">): ApiKeyStore {
  return options.adapter as ApiKeyStore;
}
