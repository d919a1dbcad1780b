/**
 * API keys' operations, one declaration each, JSON routes under `<basePath>/api-keys/`: each POST is
 * CSRF-checked (a browser's session makes keys), creating and rotating are owner-present operations, and
 * `verify` reads the key the request carries (no session, no CSRF: a script calls it). The account page's
 * forms are `api-keys/form-*`.
 *
 * @module features/api-keys/operations
 */
import { defineOperation, lazyHandler } from "../define.js";
import { createInput, keyInput, listInput, revokeFormInput, verifyInput } from "./input.js";

const keys = () => import("./keys.js");
const verify = () => import("./verify.js");
const section = () => import("./account-section.js");

export const createApiKey = defineOperation({
  name: "createApiKey",
  method: "POST",
  path: "api-keys/create",
  needs: { csrf: "prove", ownerPresent: "createApiKey" },
  presentation: "json",
  input: createInput,
  handler: lazyHandler(keys, "createApiKey"),
});
export const listApiKeys = defineOperation({
  name: "listApiKeys",
  method: "GET",
  path: "api-keys/list",
  presentation: "json",
  input: listInput,
  handler: lazyHandler(keys, "listApiKeys"),
});
export const revokeApiKey = defineOperation({
  name: "revokeApiKey",
  method: "POST",
  path: "api-keys/revoke",
  needs: { csrf: "prove", ownerPresent: "revokeApiKey" },
  presentation: "json",
  input: keyInput,
  handler: lazyHandler(keys, "revokeApiKey"),
});
export const rotateApiKey = defineOperation({
  name: "rotateApiKey",
  method: "POST",
  path: "api-keys/rotate",
  needs: { csrf: "prove", ownerPresent: "rotateApiKey" },
  presentation: "json",
  input: keyInput,
  handler: lazyHandler(keys, "rotateApiKey"),
});
export const verifyApiKey = defineOperation({
  name: "verifyApiKey",
  method: "GET",
  path: "api-keys/verify",
  presentation: "json",
  input: verifyInput,
  handler: lazyHandler(verify, "verifyApiKey"),
});
export const createApiKeyForm = defineOperation({
  name: "createApiKeyForm",
  method: "POST",
  path: "api-keys/form-create",
  needs: { csrf: "prove", ownerPresent: "createApiKey" },
  presentation: async (options, request, error) => (await section()).apiKeyFormRefusal(options, request, error),
  input: createInput,
  handler: lazyHandler(section, "createApiKeyForm"),
});
export const revokeApiKeyForm = defineOperation({
  name: "revokeApiKeyForm",
  method: "POST",
  path: "api-keys/form-revoke",
  needs: { csrf: "prove", ownerPresent: "revokeApiKey" },
  presentation: async (options, request, error) => (await section()).apiKeyFormRefusal(options, request, error),
  input: revokeFormInput,
  handler: lazyHandler(section, "revokeApiKeyForm"),
});
