/**
 * The authorization server's operations, one declaration each, under `<basePath>/oauth2/` (and the two
 * metadata routes under `<basePath>/.well-known/`). The OAuth endpoints take no cookie and no CSRF token:
 * a client authenticates itself, and their refusals are RFC answers (`respond.ts`). The pages (authorize,
 * consent, device) are the user's: the consent and device forms prove the CSRF token the page minted, and
 * a consent is an owner-present operation. The user's grants are JSON operations like the sessions'.
 *
 * @module features/authorization-server/operations
 */

import type { FieldParser } from "../../http/input.js";
import { inputSchema } from "../../http/input.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { OperationHandler } from "../../types/operation.js";
import { defineOperation, lazyHandler } from "../define.js";
import { OAuthError } from "./oauth-error.js";

const metadata = () => import("./metadata.js");
const authorizeModule = () => import("./authorize.js");
const consent = () => import("./consent.js");
const token = () => import("./token.js");
const revocation = () => import("./revocation.js");
const device = () => import("./device.js");
const register = () => import("./register.js");
const userinfo = () => import("./userinfo.js");
const grants = () => import("./user-grants.js");
const respond = () => import("./respond.js");

/** The request headers a browser-based client sends to an endpoint that authenticates it or reads a token. */
const FROM_SCRIPTS = { headers: ["Authorization", "Content-Type"] } as const;
/** The discovery documents: an MCP client names its protocol version when it fetches them. */
const DISCOVERY = { headers: ["MCP-Protocol-Version"] } as const;

/** A handler of an OAuth endpoint's module. */
type Endpoint = (options: InternalOptions, request: RequestInternal) => Promise<ResponseInternal>;

/** An OAuth endpoint's handler: loaded with its first request, its `OAuthError` answered as the RFC says. */
function endpoint<M extends Record<N, Endpoint>, N extends keyof M & string>(load: () => Promise<M>, name: N): OperationHandler {
  return async (options, request) => {
    const [module, { oauthEndpoint }] = await Promise.all([load(), respond()]);
    return oauthEndpoint(module[name])(options, request);
  };
}

const grantId: FieldParser<string> = (value, name) => {
  if (typeof value !== "string" || !/^[0-9a-f]{32}$/.test(value)) throw new OAuthError("invalid_request", `\`${name}\` is not a grant id.`);
  return value;
};

export const serverMetadata = defineOperation({
  name: "oauthServerMetadata",
  method: "GET",
  path: ".well-known/oauth-authorization-server",
  crossOrigin: DISCOVERY,
  presentation: "json",
  handler: lazyHandler(metadata, "metadataRoute"),
});
export const openIdConfiguration = defineOperation({
  name: "openIdConfiguration",
  method: "GET",
  path: ".well-known/openid-configuration",
  crossOrigin: DISCOVERY,
  presentation: "json",
  handler: lazyHandler(metadata, "metadataRoute"),
});
export const jwks = defineOperation({
  name: "oauthJwks",
  method: "GET",
  path: "oauth2/jwks",
  crossOrigin: DISCOVERY,
  presentation: "json",
  handler: lazyHandler(metadata, "jwksRoute"),
});
export const authorize = defineOperation({
  name: "oauthAuthorize",
  method: "GET",
  path: "oauth2/authorize",
  needs: { csrf: "mint" },
  presentation: "page",
  handler: lazyHandler(authorizeModule, "authorize"),
});
export const decideConsent = defineOperation({
  name: "oauthConsent",
  method: "POST",
  path: "oauth2/consent",
  needs: { csrf: "prove", ownerPresent: "authorizeApplication" },
  presentation: async (options, request, error) => (await consent()).consentRefusal(options, request, error),
  handler: lazyHandler(consent, "decideConsent"),
});
export const tokenEndpoint = defineOperation({
  name: "oauthToken",
  method: "POST",
  path: "oauth2/token",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: endpoint(token, "token"),
});
export const revokeEndpoint = defineOperation({
  name: "oauthRevoke",
  method: "POST",
  path: "oauth2/revoke",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: endpoint(revocation, "revoke"),
});
export const introspectEndpoint = defineOperation({
  name: "oauthIntrospect",
  method: "POST",
  path: "oauth2/introspect",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: endpoint(revocation, "introspect"),
});
export const userinfoGet = defineOperation({
  name: "oauthUserinfo",
  method: "GET",
  path: "oauth2/userinfo",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: lazyHandler(userinfo, "userinfo"),
});
export const userinfoPost = defineOperation({
  name: "oauthUserinfoPost",
  method: "POST",
  path: "oauth2/userinfo",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: lazyHandler(userinfo, "userinfo"),
});
export const registerEndpoint = defineOperation({
  name: "oauthRegister",
  method: "POST",
  path: "oauth2/register",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: endpoint(register, "register"),
});
export const deviceAuthorization = defineOperation({
  name: "oauthDeviceAuthorization",
  method: "POST",
  path: "oauth2/device_authorization",
  crossOrigin: FROM_SCRIPTS,
  presentation: "json",
  handler: endpoint(device, "deviceAuthorization"),
});
export const devicePage = defineOperation({
  name: "oauthDevicePage",
  method: "GET",
  path: "oauth2/device",
  needs: { csrf: "mint" },
  presentation: "page",
  handler: lazyHandler(device, "devicePage"),
});
export const deviceCodeEntered = defineOperation({
  name: "oauthDeviceCode",
  method: "POST",
  path: "oauth2/device",
  needs: { csrf: "prove" },
  presentation: "page",
  handler: lazyHandler(device, "deviceCodeEntered"),
});
export const listGrants = defineOperation({
  name: "listGrants",
  method: "GET",
  path: "oauth2/grants",
  presentation: "json",
  handler: lazyHandler(grants, "listGrants"),
});
export const revokeGrant = defineOperation({
  name: "revokeGrant",
  method: "POST",
  path: "oauth2/revoke-grant",
  needs: { csrf: "prove", ownerPresent: "revokeApplication" },
  presentation: "json",
  input: inputSchema({ grantId }),
  handler: lazyHandler(grants, "revokeUserGrant"),
});
export const revokeGrantForm = defineOperation({
  name: "revokeGrantForm",
  method: "POST",
  path: "oauth2/grants-form",
  needs: { csrf: "prove", ownerPresent: "revokeApplication" },
  presentation: async (options, request, error) => (await import("./account-section.js")).grantsFormRefusal(options, request, error),
  input: inputSchema({ grantId }),
  handler: lazyHandler(() => import("./account-section.js"), "revokeGrantForm"),
});
