/**
 * Linked accounts (docs/accounts.md): the signed-in user's accounts, listed and unlinked. Its code loads
 * with the first request to it.
 *
 * @module features/accounts
 */
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
import { unlinkInput } from "./input.js";

const routes = () => import("./routes.js");

export const listAccounts = defineOperation({
  name: "listAccounts",
  method: "GET",
  path: "accounts",
  presentation: "json",
  handler: lazyHandler(routes, "listAccountsAction"),
});

export const unlinkAccount = defineOperation({
  name: "unlinkAccount",
  method: "POST",
  path: "accounts/unlink",
  needs: { csrf: "mint", ownerPresent: "unlinkAccount" },
  presentation: "json",
  input: unlinkInput,
  handler: lazyHandler(routes, "unlinkAction"),
});

export const accountsFeature = defineFeature({ name: "accounts", operations: [listAccounts, unlinkAccount] });
