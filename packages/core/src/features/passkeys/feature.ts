/**
 * The signed-in user's passkeys (docs/passkeys.md): listed, renamed, removed. Signing in with a passkey
 * and registering one are the `Passkey()` provider's (`actions/webauthn.ts`).
 *
 * @module features/passkeys
 */
import { accountFormRefusal, formNeeds } from "../../sign-in/account-form.js";
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
import { removeInput, renameInput } from "./input.js";

const routes = () => import("./routes.js");

export const listPasskeys = defineOperation({
  name: "listPasskeys",
  method: "GET",
  path: "passkeys",
  presentation: "json",
  handler: lazyHandler(routes, "listPasskeysAction"),
});

export const renamePasskey = defineOperation({
  name: "renamePasskey",
  method: "POST",
  path: "passkeys/rename",
  needs: { csrf: "mint" },
  presentation: "json",
  input: renameInput,
  handler: lazyHandler(routes, "renamePasskeyAction"),
});

export const removePasskey = defineOperation({
  name: "removePasskey",
  method: "POST",
  path: "passkeys/remove",
  needs: { csrf: "mint", ownerPresent: "removePasskey" },
  presentation: "json",
  input: removeInput,
  handler: lazyHandler(routes, "removePasskeyAction"),
});

export const passkeysFeature = defineFeature({
  name: "passkeys",
  operations: [
    listPasskeys,
    renamePasskey,
    removePasskey,
    // The account page's forms for the same operations, back to the page.
    defineOperation({
      name: "renamePasskeyForm",
      method: "POST",
      path: "account/passkey-rename",
      needs: formNeeds,
      presentation: accountFormRefusal,
      input: renameInput,
      handler: lazyHandler(routes, "renamePasskeyForm"),
    }),
    defineOperation({
      name: "removePasskeyForm",
      method: "POST",
      path: "account/passkey-remove",
      needs: { ...formNeeds, ownerPresent: "removePasskey" },
      presentation: accountFormRefusal,
      input: removeInput,
      handler: lazyHandler(routes, "removePasskeyForm"),
    }),
  ],
});
