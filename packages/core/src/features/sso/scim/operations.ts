/**
 * SCIM provisioning's operations, one declaration each: the organization admins' token operations, JSON
 * routes under `<basePath>/scim-tokens/` (each POST CSRF-checked and owner-present), the organization page's
 * forms for the same (`scim-tokens/form-*`), and the SCIM endpoint, one declaration per method on the
 * subtree route `scim/*` (no session, no CSRF: the identity provider sends a bearer token), its refusals
 * SCIM error bodies.
 *
 * @module features/sso/scim/operations
 */
import { defineOperation, lazyHandler } from "../../define.js";
import { tokenFormInput, tokenInput, tokenListInput } from "./input.js";
import { scimRefusal } from "./respond.js";

const tokens = () => import("./tokens.js");
const handle = () => import("./handle.js");
const tokenSection = () => import("./token-section.js");
const ssoSection = () => import("../organization-section.js");

export const createScimToken = defineOperation({
  name: "createScimToken",
  method: "POST",
  path: "scim-tokens/create",
  needs: { csrf: "prove", ownerPresent: "createScimToken" },
  presentation: "json",
  input: tokenListInput,
  handler: lazyHandler(tokens, "createScimToken"),
});
export const listScimTokens = defineOperation({
  name: "listScimTokens",
  method: "GET",
  path: "scim-tokens/list",
  presentation: "json",
  input: tokenListInput,
  handler: lazyHandler(tokens, "listScimTokens"),
});
export const revokeScimToken = defineOperation({
  name: "revokeScimToken",
  method: "POST",
  path: "scim-tokens/revoke",
  needs: { csrf: "prove", ownerPresent: "revokeScimToken" },
  presentation: "json",
  input: tokenInput,
  handler: lazyHandler(tokens, "revokeScimToken"),
});

/** The organization page's create button: the new token shown once on the page it answers (`?organizationId=`). */
export const createScimTokenForm = defineOperation({
  name: "createScimTokenForm",
  method: "POST",
  path: "scim-tokens/form-create",
  needs: { csrf: "prove", ownerPresent: "createScimToken" },
  presentation: async (options, request, error) => (await ssoSection()).ssoFormRefusal(options, request, error),
  handler: lazyHandler(tokenSection, "createScimTokenForm"),
});
/** The organization page's revoke button of a token (`?organizationId=` in its action). */
export const revokeScimTokenForm = defineOperation({
  name: "revokeScimTokenForm",
  method: "POST",
  path: "scim-tokens/form-revoke",
  needs: { csrf: "prove", ownerPresent: "revokeScimToken" },
  presentation: async (options, request, error) => (await ssoSection()).ssoFormRefusal(options, request, error),
  input: tokenFormInput,
  handler: lazyHandler(tokenSection, "revokeScimTokenForm"),
});

/** The SCIM endpoint for one method: the token, the path and the method decide the rest (`handle.ts`). */
function scimEndpoint(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE") {
  return defineOperation({
    name: `scim${method[0]}${method.slice(1).toLowerCase()}`,
    method,
    path: "scim/*",
    presentation: (_options, _request, error) => scimRefusal(error),
    handler: lazyHandler(handle, "handleScim"),
  });
}

export const scimGet = scimEndpoint("GET");
export const scimPost = scimEndpoint("POST");
export const scimPut = scimEndpoint("PUT");
export const scimPatch = scimEndpoint("PATCH");
export const scimDelete = scimEndpoint("DELETE");

/** Every operation of SCIM provisioning: what the `sso` feature lists. */
export const scimOperations = [
  createScimToken,
  listScimTokens,
  revokeScimToken,
  createScimTokenForm,
  revokeScimTokenForm,
  scimGet,
  scimPost,
  scimPut,
  scimPatch,
  scimDelete,
] as const;
