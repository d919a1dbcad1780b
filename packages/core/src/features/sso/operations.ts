/**
 * Enterprise SSO's operations, one declaration each, JSON routes under `<basePath>/sso/`: the connection
 * changes are CSRF-checked POSTs of a signed-in member with `sso:manage`; discovery is a CSRF-checked POST
 * of the sign-in page (the address stays out of URLs and logs).
 *
 * @module features/sso/operations
 */
import { defineOperation, lazyHandler } from "../define.js";
import {
  acsInput,
  connectionInput,
  createInput,
  discoverInput,
  formCreateInput,
  formSamlInput,
  organizationInput,
  updateInput,
} from "./input.js";

const connections = () => import("./connections.js");
const discovery = () => import("./discovery.js");
const oidc = () => import("./oidc.js");
const saml = () => import("./saml-flow.js");
const samlPage = () => import("./saml-continue-page.js");
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
/** Starts a sign-in through a connection, OIDC or SAML (the connection's id is the path's last segment). */
export const ssoSignInStart = defineOperation({
  name: "ssoSignInStart",
  method: "POST",
  path: "sso-signin/:provider",
  needs: { csrf: "prove", callbackUrl: true },
  handler: lazyHandler(oidc, "connectionSignInStart"),
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
/** The organization page's form that adds a SAML connection from the IdP's pasted metadata (`?organizationId=`). */
export const createSamlConnectionForm = defineOperation({
  name: "createSamlConnectionForm",
  method: "POST",
  path: "sso/form-create-saml",
  needs: { csrf: "prove" },
  presentation: async (options, request, error) => (await section()).ssoFormRefusal(options, request, error),
  input: formSamlInput,
  handler: lazyHandler(section, "createSamlConnectionForm"),
});
/** The organization page's delete button of a connection (`?organizationId=` in its action). */
export const deleteSsoConnectionForm = defineOperation({
  name: "deleteSsoConnectionForm",
  method: "POST",
  path: "sso/form-delete",
  needs: { csrf: "prove" },
  presentation: async (options, request, error) => (await section()).ssoFormRefusal(options, request, error),
  input: connectionInput,
  handler: lazyHandler(section, "deleteSsoConnectionForm"),
});
/**
 * A SAML identity provider's response, POSTed from its own site (no cookies of ours come along): answered
 * with a page that posts it on, same-site (`saml-flow.ts`). Nothing is decided here, so nothing to forge.
 */
export const samlAssertionConsumer = defineOperation({
  name: "samlAssertionConsumer",
  method: "POST",
  path: "sso-acs/:provider",
  needs: { csrf: "read" },
  input: acsInput,
  handler: lazyHandler(saml, "samlAssertionConsumer"),
});
/** The same response, posted on by our page with this browser's cookies: bound to the request it started. */
export const samlAssertionContinue = defineOperation({
  name: "samlAssertionContinue",
  method: "POST",
  path: "sso-acs-continue/:provider",
  needs: { csrf: "read", callbackUrl: true },
  input: acsInput,
  handler: lazyHandler(saml, "samlAssertionContinue"),
});
/** The SP metadata of a SAML connection (public: entity id, ACS URL, signing certificate). */
export const samlMetadata = defineOperation({
  name: "samlMetadata",
  method: "GET",
  path: "sso-metadata/:provider",
  handler: lazyHandler(saml, "samlMetadata"),
});
/** The script that submits the assertion consumer's page at once. */
export const samlContinueScript = defineOperation({
  name: "samlContinueScript",
  method: "GET",
  path: "sso-continue-script",
  handler: lazyHandler(samlPage, "samlContinueScript"),
});
