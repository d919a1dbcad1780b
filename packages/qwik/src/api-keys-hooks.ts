/**
 * The API-key hooks of `FrameworkAuth$` (core's `apiKeys` option, docs/api-keys.md): one `globalAction$`
 * per core operation, each one line over the table of `operation-actions.ts`. A new key is in the action's
 * value once (`key`), never again: show it, and let the value go.
 */
import type { CreatedApiKey, ListedApiKey } from "@authlib/core";
import { type Action, globalAction$, validator$, type z } from "@builder.io/qwik-city";
import type * as keys from "./api-keys.js";
import type { ApiKeyResult as Result } from "./api-keys.js";
import type { FrameworkAuthConfigQrl } from "./context.js";
import { runOperation, validateOperation } from "./operation-actions.js";

/** The input of an action, as its schema takes it. */
type In<Schema extends z.ZodTypeAny> = z.input<Schema>;

/** `useCreateApiKey`, `useListApiKeys`, `useRotateApiKey`, `useRevokeApiKey`: a user's and an organization's keys. */
export function apiKeyHooks(configQrl: FrameworkAuthConfigQrl) {
  /** A new key (`name`, `scopes`, `expiresIn`, `organizationId`): `{ key, apiKey }`, the key shown this once. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useCreateApiKey: Action<Result<CreatedApiKey>, In<typeof keys.createApiKeySchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "createApiKey", form),
    validator$((_ev, data) => validateOperation("createApiKey", data)),
  );

  /** The live keys of the user (or of `organizationId`): `{ apiKeys }`, never a key itself. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useListApiKeys: Action<Result<{ apiKeys: ListedApiKey[] }>, In<typeof keys.listApiKeysSchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "listApiKeys", form),
    validator$((_ev, data) => validateOperation("listApiKeys", data)),
  );

  /** Replaces the key `keyId` by a new one with the same name and scopes (the old one stops): `{ key, apiKey }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRotateApiKey: Action<Result<CreatedApiKey>, In<typeof keys.apiKeySchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "rotateApiKey", form),
    validator$((_ev, data) => validateOperation("rotateApiKey", data)),
  );

  /** Revokes the key `keyId` (its creator is mailed): `{ revoked: true }`. */
  // biome-ignore lint/correctness/useQwikLoaderLocation: the app exports it from its plugin@auth.ts
  const useRevokeApiKey: Action<Result<{ revoked: true }>, In<typeof keys.apiKeySchema>> = globalAction$(
    (form, ev) => runOperation(ev, configQrl, "revokeApiKey", form),
    validator$((_ev, data) => validateOperation("revokeApiKey", data)),
  );
  return { useCreateApiKey, useListApiKeys, useRotateApiKey, useRevokeApiKey };
}
