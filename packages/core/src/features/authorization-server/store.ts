/**
 * The adapter as the authorization server uses it: the methods it needs, typed as present (the start-up
 * check proved them, `FeatureDefinition.adapterNeeds`).
 *
 * @module features/authorization-server/store
 */
import type { Adapter } from "../../types/adapters.js";
import type { AuthorizationServerAdapterMethods } from "../../types/authorization-server.js";
import type { ConfigOptions } from "../../types/internal.js";

/** The authorization server's methods, every one present, and the user lookup of the consent page and `userinfo`. */
export type AuthorizationServerStore = Required<AuthorizationServerAdapterMethods> & Required<Pick<Adapter, "getUser">>;

/** Every method the authorization server needs, in the order the start-up check names the missing ones. */
export const authorizationServerMethods = [
  "createOAuthClient",
  "getOAuthClient",
  "updateOAuthClient",
  "getOAuthConsent",
  "saveOAuthConsent",
  "deleteOAuthConsent",
  "createOAuthAuthorizationCode",
  "getOAuthAuthorizationCode",
  "useOAuthAuthorizationCode",
  "createOAuthGrant",
  "getOAuthGrant",
  "listOAuthGrantsByUser",
  "advanceOAuthGrant",
  "revokeOAuthGrant",
  "revokeOAuthGrantsByUser",
  "createOAuthDeviceCode",
  "getOAuthDeviceCode",
  "getOAuthDeviceCodeByUserCode",
  "updateOAuthDeviceCode",
  "listOAuthSigningKeys",
  "createOAuthSigningKey",
  "getUser",
] as const satisfies ReadonlyArray<keyof Adapter>;

/** The adapter's authorization-server methods (present: checked at start-up). */
export function storeOf(options: Pick<ConfigOptions, "adapter">): AuthorizationServerStore {
  return options.adapter as AuthorizationServerStore;
}
