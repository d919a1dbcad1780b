/**
 * Linked accounts for `useAccounts` and `useUnlinkAccount`: the accounts the signed-in user signs in with
 * (docs/accounts.md) and unlinking one, through the instance's `auth.api` in process. Failures are values,
 * as for session control (`control.ts`).
 *
 * CSRF: core refuses an unlink the browser sent from another site, and Qwik City's `checkOrigin` refuses
 * a cross-origin action POST before it runs.
 */
import type { LinkedAccount } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { listingError, operationFailure } from "./control.js";
import { UNLINK_FAILED_MESSAGE } from "./messages.js";
import { operationRequest } from "./operation.js";
import { readSession } from "./session.js";
import type { FormFailure, UnlinkAccountInput } from "./validation.js";

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

/** Unlinks one of the signed-in user's accounts: `{ unlinked }`, or the failure with its HTTP status. */
export async function unlinkAccount(
  ev: RequestEventCommon,
  context: AuthContext,
  input: UnlinkAccountInput,
): Promise<{ unlinked: number } | { status: number; failure: UnlinkAccountFailure }> {
  try {
    return await context.auth.api.unlinkAccount(operationRequest(ev), input);
  } catch (error) {
    // The status core's `POST <basePath>/accounts/unlink` answers for it.
    return operationFailure<"provider" | "providerAccountId", UnlinkAccountError>(ev, context, error, UNLINK_FAILED_MESSAGE);
  }
}
