/**
 * The values of linked accounts, `useAccounts` and `useUnlinkAccount`: the accounts the signed-in user
 * signs in with (docs/accounts.md) and unlinking one, core's `listAccounts` and `unlinkAccount` run by
 * `operation-actions.ts`. Failures are values, as for session control.
 */
import type { LinkedAccount } from "@authlib/core";
import type { FormFailure } from "./validation.js";

/** Why `useAccounts` has no list: nobody is signed in, the adapter cannot list accounts, or listing failed. */
export type AccountsError = "SessionRequired" | "AccountsUnavailable" | "Configuration";

/** The value of `useAccounts`: the accounts, or why there are none to show. */
export type AccountsResult = { accounts: LinkedAccount[]; error?: undefined } | { accounts: null; error: AccountsError };

/** The types of a failed unlink: core's, for the account routes, or `"Configuration"` for the operator's. */
export type UnlinkAccountError =
  | "AccountNotFound"
  | "InvalidAccount"
  | "LastSignInMethod"
  | "SessionRequired"
  | "MissingCSRF"
  | "AccountsUnavailable"
  | "Configuration";

/** The failure of `useUnlinkAccount`: a message to show, and the error's type in `code`. */
export type UnlinkAccountFailure = FormFailure<"provider" | "providerAccountId", UnlinkAccountError>;
