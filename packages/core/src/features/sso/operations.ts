/**
 * Enterprise SSO's operations, one declaration each, JSON routes under `<basePath>/sso/`: the connection
 * changes are CSRF-checked POSTs of a signed-in member with `sso:manage`; discovery is a CSRF-checked POST
 * of the sign-in page (the address stays out of URLs and logs).
 *
 * @module features/sso/operations
 */
import { defineOperation, lazyHandler } from "../define.js";
import { connectionInput, createInput, discoverInput, formCreateInput, organizationInput, updateInput } from "./input.js";

const connections = () => import("./connections.js");
const discovery = () => import("./discovery.js");
const oidc = () => import("./oidc.js");
const section = () => import("./organization-section.js");

export const createSsoConnection = defineOperation({
  name: "createSsoConnection",
  method: "POST",
  path: "sso/create",
  needs: { csrf: "prove" },
  presentation: "json",
  input: createInput,
  handler: lazyHandler(connections, "createSsoConnection"),
});
export const updateSsoConnection = defineOperation({
  name: "updateSsoConnection",
  method: "POST",
  path: "sso/update",
  needs: { csrf: "prove" },
  presentation: "json",
  input: updateInput,
  handler: lazyHandler(connections, "updateSsoConnection"),
});
export const deleteSsoConnection = defineOperation({
  name: "deleteSsoConnection",
  method: "POST",
  path: "sso/delete",
  needs: { csrf: "prove" },
  presentation: "json",
  input: connectionInput,
  handler: lazyHandler(connections, "deleteSsoConnection"),
});
export const listSsoConnections = defineOperation({
  name: "listSsoConnections",
  method: "GET",
  path: "sso/list",
  presentation: "json",
  input: organizationInput,
  handler: lazyHandler(connections, "listSsoConnections"),
});
export const ssoDiscover = defineOperation({
  name: "ssoDiscover",
  method: "POST",
  path: "sso/discover",
  needs: { csrf: "prove" },
  presentation: "json",
  input: discoverInput,
  handler: lazyHandler(discovery, "ssoDiscover"),
});
/** The sign-in page's address step: to the address's connection, or back to the page's other ways in. */
export const ssoEmailStep = defineOperation({
  name: "ssoEmailStep",
  method: "POST",
  path: "sso/start",
  needs: { csrf: "prove", callbackUrl: true },
  input: discoverInput,
  handler: lazyHandler(discovery, "ssoEmailStep"),
});
/** Starts a sign-in through an OIDC connection (the connection's id is the path's last segment). */
export const ssoSignInStart = defineOperation({
  name: "ssoSignInStart",
  method: "POST",
  path: "sso-signin/:provider",
  needs: { csrf: "prove", callbackUrl: true },
  handler: lazyHandler(oidc, "oidcSignInStart"),
});
/** The identity provider's answer (its query); it must not replace the CSRF cookie its flow is bound to. */
export const ssoCallback = defineOperation({
  name: "ssoCallback",
  method: "GET",
  path: "sso-callback/:provider",
  needs: { csrf: "mint", callbackUrl: true },
  handler: lazyHandler(oidc, "oidcCallback"),
});
/** The organization page's form that adds an OIDC connection (`?organizationId=` in its action). */
export const createOidcConnectionForm = defineOperation({
  name: "createOidcConnectionForm",
  method: "POST",
  path: "sso/form-create",
  needs: { csrf: "prove" },
  presentation: async (options, request, error) => (await section()).ssoFormRefusal(options, request, error),
  input: formCreateInput,
  handler: lazyHandler(section, "createOidcConnectionForm"),
});
