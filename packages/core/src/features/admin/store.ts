/**
 * The adapter as the admin feature uses it: the methods it needs, typed as present (the start-up check
 * proved them, `FeatureDefinition.adapterNeeds`).
 *
 * @module features/admin/store
 */
import type { Adapter } from "../../types/adapters.js";
import type { ConfigOptions } from "../../types/internal.js";

/** Every method the admin feature needs, in the order the start-up check names the missing ones. */
export const adminMethods = [
  "listUsers",
  "getUserBan",
  "saveUserBan",
  "deleteUserBan",
  "createUser",
  "getUser",
  "getUserByEmail",
  "updateUser",
  "deleteUser",
  "listAccountsByUserId",
] as const satisfies ReadonlyArray<keyof Adapter>;

/** The admin feature's methods, every one present, and the optional ones it uses where the adapter has them. */
export type AdminStore = Required<Pick<Adapter, (typeof adminMethods)[number]>> &
  Pick<Adapter, "deleteSessionsByUserId" | "linkAccount" | "updateAccount">;

/** The adapter's admin methods (present: checked at start-up). */
export function storeOf(options: Pick<ConfigOptions, "adapter">): AdminStore {
  return options.adapter as AdminStore;
}
