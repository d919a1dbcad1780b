/**
 * The API-key actions (`useCreateApiKey`, `useListApiKeys`, `useRotateApiKey`, `useRevokeApiKey`; core's
 * `apiKeys` option, docs/api-keys.md): their bounded input schemas, and their failure, a form failure whose
 * `code` is the error's type with core's status, never an exception. Creating, rotating and revoking a key
 * are owner-present operations: a sign-in that is too old sends the browser to sign in again and back.
 */
import { z } from "@builder.io/qwik-city";
import { controlFailure } from "./control.js";
import type { FormFailure } from "./validation.js";

/** Shown when an API-key action failed for a reason that is the operator's (the details are in the server log). */
export const API_KEY_FAILED_MESSAGE = "The API key could not be changed. Please try again later.";

/** The error types an API-key action reports (any other is `"Configuration"`). */
export type ApiKeyError =
  | "SessionRequired"
  | "MissingCSRF"
  | "RecentSignInRequired"
  | "InvalidApiKeyRequest"
  | "ApiKeyScopeExceeded"
  | "ApiKeyNotFound"
  | "OrganizationNotFound"
  | "OrganizationForbidden"
  | "OrganizationPolicy"
  | "UnknownAction";

/** The failure of an API-key action: `code` is the error's type (`"Configuration"`: the operator's). */
export type ApiKeyFailure = FormFailure<string, ApiKeyError | "Configuration">;

/** The value of an API-key action: what the operation answered, or the failure. */
export type ApiKeyResult<Value> = (Value & { failed?: undefined }) | ({ failed: true } & ApiKeyFailure);

/** Core's status for the error (404 `ApiKeyNotFound`, 403 `ApiKeyScopeExceeded`, …), its type as `code`. */
export const apiKeyFailure = controlFailure<string, ApiKeyError>(API_KEY_FAILED_MESSAGE);

const organizationId = z.string().min(1).max(128).optional();
/** Scopes as a list, or one string of names separated by spaces (a form's text field). */
const scopes = z.union([z.array(z.string().min(1).max(128)).max(64), z.string().max(8192)]).optional();

/** `useCreateApiKey`: a name, scopes, a lifetime in seconds, and the organization for an organization key. */
export const createApiKeySchema = z.object({
  name: z.string().min(1).max(64),
  scopes,
  expiresIn: z.coerce.number().int().min(60).optional(),
  organizationId,
});
/** `useListApiKeys`: the user's keys, or the organization's. */
export const listApiKeysSchema = z.object({ organizationId });
/** `useRotateApiKey`, `useRevokeApiKey`: the key's public id. */
export const apiKeySchema = z.object({ keyId: z.string().min(1).max(64) });
