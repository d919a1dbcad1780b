/**
 * The OAuth 2.1 authorization server (docs/authorization-server.md): authlib issues tokens to clients that
 * are not its own pages (MCP clients, CLIs, native apps, other services), under `<basePath>/oauth2/*`, with
 * its metadata at the well-known routes. Turned on by `authorizationServer: {…}`; its code loads with the
 * first request to it. The resource side is `@authlib/core/resource`.
 *
 * @module features/authorization-server/feature
 */
import { defineFeature } from "../define.js";
import { authorizationServerApi } from "./api.js";
import { authorizationServerConfigError } from "./config-check.js";
import { AUTHORIZATION_SERVER_LIMITS } from "./limits.js";
import { authorizationServerMessages } from "./messages.js";
import * as declared from "./operations.js";
import { authorizationServerMethods } from "./store.js";

export type { AuthorizationServerApi, AuthorizationServerRateLimits, ListedGrant } from "./types.js";

const operations = [
  declared.serverMetadata,
  declared.openIdConfiguration,
  declared.jwks,
  declared.authorize,
  declared.decideConsent,
  declared.tokenEndpoint,
  declared.revokeEndpoint,
  declared.introspectEndpoint,
  declared.userinfoGet,
  declared.userinfoPost,
  declared.registerEndpoint,
  declared.deviceAuthorization,
  declared.devicePage,
  declared.deviceCodeEntered,
  declared.listGrants,
  declared.revokeGrant,
  declared.revokeGrantForm,
];

export const authorizationServerFeature = defineFeature({
  name: "authorizationServer",
  enabled: (config) => config.authorizationServer !== undefined,
  turnedOnBy: "authorizationServer",
  api: authorizationServerApi,
  messages: authorizationServerMessages,
  check: authorizationServerConfigError,
  adapterNeeds: (config) =>
    config.authorizationServer === undefined
      ? undefined
      : { feature: "The authorization server (`authorizationServer`)", methods: authorizationServerMethods },
  rateLimits: { authorizationServer: AUTHORIZATION_SERVER_LIMITS },
  quietErrors: ["OAuthError"],
  ownerOperations: {
    authorizeApplication: { label: "application authorization" },
    revokeApplication: { label: "application revoke" },
  },
  audit: {
    failures: {
      routes: operations.filter((operation) => operation.method === "POST").map((operation) => operation.path),
      type: "oauthRefused",
    },
  },
  accountSection: {
    notices: { grantRevoked: "oauth.grants.revoked" },
    errors: { OAuthError: "oauth.grants.notFound" },
    render: async (options, request, page) => (await import("./account-section.js")).grantsAccountSection(options, request, page),
  },
  hooks: {
    everySessionEnded: async (options, userId) => (await import("./user-grants.js")).revokeEveryGrant(options, userId),
  },
  // An admin's view of a user (the admin feature's `getUser`): their live grants, never a token.
  userDetails: { name: "grants", read: async (options, userId) => (await import("./user-grants.js")).grantsOf(options, userId) },
  operations,
});
