/**
 * The provider name of the second-factor row among a user's accounts (kept by the second factor's
 * feature), apart so that the account listing can leave the row out without loading the feature's code.
 *
 * @module sign-in/second-factor-row
 */
import type { AdapterAccount } from "../types/adapters.js";

/** The `provider` of a user's second-factor row. No provider may take this id. */
export const SECOND_FACTOR_PROVIDER = "authlib-2fa";

/** True for the second-factor row, which is no linked account (not listed, not unlinked). */
export function isSecondFactorRow(account: Pick<AdapterAccount, "provider">): boolean {
  return account.provider === SECOND_FACTOR_PROVIDER;
}
