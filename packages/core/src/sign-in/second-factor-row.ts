/**
 * The provider name of the second-factor row among a user's accounts (see `two-factor/record.ts`), apart
 * so that the account listing can leave the row out without loading the second-factor code.
 *
 * @module two-factor/row
 */
import type { AdapterAccount } from "../types/adapters.js";

/** The `provider` of a user's second-factor row. No provider may take this id. */
export const TWO_FACTOR_PROVIDER = "authlib-2fa";

/** True for the second-factor row, which is no linked account (not listed, not unlinked). */
export function isSecondFactorRow(account: Pick<AdapterAccount, "provider">): boolean {
  return account.provider === TWO_FACTOR_PROVIDER;
}
