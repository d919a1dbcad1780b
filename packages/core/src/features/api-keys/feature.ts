/**
 * API keys (docs/api-keys.md): keys for users and organizations that scripts, CI and integrations send as
 * `Authorization: Bearer <prefix>_…`, verified with `auth.api.verifyApiKey`. JSON routes under
 * `<basePath>/api-keys/*` and a section of the account page. Turned on by `apiKeys: {…}`; its code loads with
 * the first request to it.
 *
 * @module features/api-keys/feature
 */
import { defineFeature } from "../define.js";
import { apiKeysApi } from "./api.js";
import { apiKeysConfigError } from "./config-check.js";
import { API_KEY_LIMITS } from "./limits.js";
import { apiKeyMessages } from "./messages.js";
import * as declared from "./operations.js";
import { apiKeyMethods } from "./store.js";

export type { ApiKeyRateLimits, ApiKeysApi, CreatedApiKey, ListedApiKey, VerifiedApiKey } from "./types.js";

const operations = [
  declared.createApiKey,
  declared.listApiKeys,
  declared.revokeApiKey,
  declared.rotateApiKey,
  declared.verifyApiKey,
  declared.createApiKeyForm,
  declared.revokeApiKeyForm,
];

export const apiKeysFeature = defineFeature({
  name: "apiKeys",
  enabled: (config) => config.apiKeys !== undefined,
  turnedOnBy: "apiKeys",
  api: apiKeysApi,
  messages: apiKeyMessages,
  check: apiKeysConfigError,
  adapterNeeds: (config) => (config.apiKeys === undefined ? undefined : { feature: "API keys (`apiKeys`)", methods: apiKeyMethods }),
  rateLimits: { apiKeys: API_KEY_LIMITS },
  quietErrors: ["InvalidApiKey", "ApiKeyScopeExceeded", "ApiKeyNotFound", "InvalidApiKeyRequest"],
  ownerOperations: {
    createApiKey: { label: "API key creation" },
    rotateApiKey: { label: "API key rotation" },
    revokeApiKey: { label: "API key revoke" },
  },
  accountSection: {
    notices: { apiKeyRevoked: "apiKeys.revoked", apiKeyCreated: "apiKeys.copyHint" },
    errors: { ApiKeyNotFound: "apiKeys.notFound", InvalidApiKeyRequest: "apiKeys.invalid" },
    render: async (options, request, page) => (await import("./account-section.js")).apiKeysAccountSection(options, request, page),
  },
  organizationSection: {
    render: async (options, request, page) =>
      (await import("./organization-section.js")).apiKeysOrganizationSection(options, request, page),
  },
  hooks: {
    userSuspended: async (options, userId) => (await import("./keys.js")).revokeEveryKey(options, userId),
  },
  operations,
});
