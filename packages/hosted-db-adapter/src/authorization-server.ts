/**
 * The authorization server's methods of `HostedDbAdapter` (core's `AuthorizationServerAdapterMethods`), on
 * the tables of migration 8: clients and consents (oauth-clients.ts), authorization and device codes
 * (oauth-codes.ts), grants and signing keys (oauth-grants.ts).
 *
 * The rules are the database's: a primary key refuses a second client, code, grant, device code or key with
 * a taken key (the insert throws the driver's unique violation); a consent is one row per (user, client);
 * foreign keys with ON DELETE CASCADE delete a user's consents, codes, grants and the device codes they
 * answered with the user, in the same statement. The three compare-and-set methods are each one conditional
 * UPDATE, so two instances on one database agree on who used a code, a refresh generation or a device code.
 *
 * @module authorization-server
 */
import type { AuthorizationServerAdapterMethods } from "@authlib/core";
import type { HostedDbClient } from "./client.js";
import { oauthClientMethods, oauthConsentMethods } from "./oauth-clients.js";
import { authorizationCodeMethods, deviceCodeMethods } from "./oauth-codes.js";
import { grantMethods, signingKeyMethods } from "./oauth-grants.js";

/** Every authorization server method of `Adapter`, over `client`. */
export function authorizationServerMethods(client: HostedDbClient): Required<AuthorizationServerAdapterMethods> {
  return {
    ...oauthClientMethods(client),
    ...oauthConsentMethods(client),
    ...authorizationCodeMethods(client),
    ...grantMethods(client),
    ...deviceCodeMethods(client),
    ...signingKeyMethods(client),
  };
}
