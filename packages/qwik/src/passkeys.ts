/**
 * Passkeys managed like any factor for `usePasskeys`, `useRenamePasskey` and `useRemovePasskey`: the
 * signed-in user's passkeys (name, added, last used) through the instance's `auth.api` in process, and
 * the types of renaming and removing one (core's `renamePasskey` and `removePasskey`, entries of
 * `operation-actions.ts`). Failures are values, as for linked accounts (`accounts.ts`); a removal refused
 * for a sign-in that is too old (`RecentSignInRequired`) sends the browser to sign in again and come back,
 * as the second-factor settings do (`two-factor.ts`).
 */
import type { ListedPasskey } from "@authlib/core";
import type { RequestEventCommon } from "@builder.io/qwik-city";
import type { AuthContext } from "./context.js";
import { listingError } from "./control.js";
import { operationRequest } from "./operation.js";
import { readSession } from "./session.js";
import type { FormFailure } from "./validation.js";

/** Why `usePasskeys` has no list: nobody is signed in, no passkey provider or adapter methods, or listing failed. */
export type PasskeysError = "SessionRequired" | "UnknownAction" | "MissingAdapterMethods" | "Configuration";

/** The value of `usePasskeys`: the passkeys, oldest first, or why there are none to show. */
export type PasskeysResult = { passkeys: ListedPasskey[]; error?: undefined } | { passkeys: null; error: PasskeysError };

/** The types of a failed rename or removal: core's, for the passkey routes, or `"Configuration"` for the operator's. */
export type PasskeyError =
  | "PasskeyNotFound"
  | "InvalidName"
  | "LastSignInMethod"
  | "RecentSignInRequired"
  | "IncorrectPassword"
  | "SessionRequired"
  | "MissingCSRF"
  | "Configuration";

/** The failure of `useRenamePasskey` and `useRemovePasskey`: a message to show, and the error's type in `code`. */
export type PasskeyFailure = FormFailure<"id" | "name", PasskeyError>;

/** The signed-in user's passkeys. A signed-out visitor costs no listing (the session read is shared). */
export async function listPasskeys(ev: RequestEventCommon, context: AuthContext): Promise<PasskeysResult> {
  if (!(await readSession(ev, context))) return { passkeys: null, error: "SessionRequired" };
  try {
    return { passkeys: await context.auth.api.listPasskeys(operationRequest(ev)) };
  } catch (error) {
    return { passkeys: null, error: listingError(error, ["SessionRequired", "UnknownAction", "MissingAdapterMethods"]) };
  }
}
