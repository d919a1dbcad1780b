/**
 * Linked accounts (docs/accounts.md): the signed-in user's accounts, listed and unlinked. Its code loads
 * with the first request to it.
 *
 * @module features/accounts
 */
import { defineFeature, lazyHandler } from "../define.js";

const routes = () => import("./routes.js");

export const accountsFeature = defineFeature({
  name: "accounts",
  operations: [
    { name: "listAccounts", method: "GET", path: "accounts", presentation: "json", handler: lazyHandler(routes, "listAccountsAction") },
    {
      name: "unlinkAccount",
      method: "POST",
      path: "accounts/unlink",
      needs: { csrf: "mint", ownerPresent: "unlinkAccount" },
      presentation: "json",
      handler: lazyHandler(routes, "unlinkAction"),
    },
  ],
});
