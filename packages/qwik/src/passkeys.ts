/**
 * The values of passkeys managed like any factor, `usePasskeys`, `useRenamePasskey` and `useRemovePasskey`:
 * the signed-in user's passkeys (name, added, last used), renaming one and removing one, core's
 * `listPasskeys`, `renamePasskey` and `removePasskey` run by `operation-actions.ts`. Failures are values, as
 * for linked accounts; a removal refused for a sign-in that is too old (`RecentSignInRequired`) sends the
 * browser to sign in again and come back, as the second-factor settings do.
 */
import type { ListedPasskey } from "@authlib/core";
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
