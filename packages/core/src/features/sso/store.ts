/**
 * The adapter as enterprise SSO uses it: its own methods (connections, identities) and the organization and
 * user methods it reads, typed as present (the start-up check proved them, `FeatureDefinition.adapterNeeds`).
 *
 * @module features/sso/store
 */
import type { Adapter } from "../../types/adapters.js";
import type { ConfigOptions } from "../../types/internal.js";
import type { OrganizationAdapterMethods } from "../../types/organizations.js";
import type { SsoAdapterMethods } from "../../types/sso.js";

/** Every SSO method, in the order the start-up check names the missing ones. */
export const ssoMethods = [
  "createSsoConnection",
  "getSsoConnection",
  "listSsoConnections",
  "updateSsoConnection",
  "deleteSsoConnection",
  "getSsoIdentity",
  "createSsoIdentity",
] as const satisfies ReadonlyArray<keyof Adapter>;

/** The organization and user methods SSO reads and writes (organizations' start-up check proves them too). */
type Shared = Required<
  Pick<OrganizationAdapterMethods, "getOrganization" | "getMember" | "createMember" | "listDomainsByName"> &
    Pick<Adapter, "getUser" | "getUserByEmail" | "createUser" | "updateUser">
>;

/** The SSO methods and the shared ones, every one present. */
export type SsoStore = Required<SsoAdapterMethods> & Shared;

/** The adapter's SSO methods (present: checked at start-up). */
export function storeOf(options: Pick<ConfigOptions, "adapter">): SsoStore {
  return options.adapter as SsoStore;
}
