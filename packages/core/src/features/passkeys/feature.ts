/**
 * The signed-in user's passkeys (docs/passkeys.md): listed, renamed, removed. Signing in with a passkey
 * and registering one are the `Passkey()` provider's (`actions/webauthn.ts`).
 *
 * @module features/passkeys
 */
import { accountFormRefusal, formNeeds } from "../../sign-in/account-form.js";
import { defineFeature, lazyHandler } from "../define.js";

const routes = () => import("./routes.js");

export const passkeysFeature = defineFeature({
  name: "passkeys",
  operations: [
    { name: "listPasskeys", method: "GET", path: "passkeys", presentation: "json", handler: lazyHandler(routes, "listPasskeysAction") },
    {
      name: "renamePasskey",
      method: "POST",
      path: "passkeys/rename",
      needs: { csrf: "mint" },
      presentation: "json",
      handler: lazyHandler(routes, "renamePasskeyAction"),
    },
    {
      name: "removePasskey",
      method: "POST",
      path: "passkeys/remove",
      needs: { csrf: "mint", ownerPresent: "removePasskey" },
      presentation: "json",
      handler: lazyHandler(routes, "removePasskeyAction"),
    },
    // The account page's forms for the same operations, back to the page.
    {
      name: "renamePasskeyForm",
      method: "POST",
      path: "account/passkey-rename",
      needs: formNeeds,
      presentation: accountFormRefusal,
      handler: lazyHandler(routes, "renamePasskeyForm"),
    },
    {
      name: "removePasskeyForm",
      method: "POST",
      path: "account/passkey-remove",
      needs: { ...formNeeds, ownerPresent: "removePasskey" },
      presentation: accountFormRefusal,
      handler: lazyHandler(routes, "removePasskeyForm"),
    },
  ],
});
