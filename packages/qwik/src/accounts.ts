/**
 * Linked accounts for `useAccounts` and `useUnlinkAccount`: the accounts the signed-in user signs in with
 * (docs/accounts.md), through the instance's `auth.api` in process, and the types of unlinking one (core's
 * `unlinkAccount`, an entry of `operation-actions.ts`). Failures are values, as for session control
 * (`control.ts`).
 */
import type { LinkedAccount } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { listingError } from "./control.js";
import { operationRequest } from "./operation.js";
import { readSession } from "./session.js";
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

/** The signed-in user's linked accounts. A signed-out visitor costs no listing (the session read is shared). */
export async function listAccounts(ev: RequestEventCommon, context: AuthContext): Promise<AccountsResult> {
  if (!(await readSession(ev, context))) return { accounts: null, error: "SessionRequired" };
  try {
    return { accounts: await context.auth.api.listAccounts(operationRequest(ev)) };
  } catch (error) {
    return { accounts: null, error: listingError(error, ["SessionRequired", "AccountsUnavailable"]) };
  }
}
