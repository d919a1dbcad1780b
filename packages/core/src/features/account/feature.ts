/**
 * The account's life (docs/account.md): the built-in account page and its forms, the email address
 * changed, confirmed or reverted, the account deleted. Its code loads with the first request to it.
 *
 * @module features/account
 */
import { accountFormRefusal, formNeeds } from "../../sign-in/account-form.js";
import type { OperationDeclaration } from "../../types/operation.js";
import { defineFeature, lazyHandler } from "../define.js";

const routes = () => import("./page-routes.js");
const revert = () => import("./email-revert.js");

const form = formNeeds;

/** A POST of one of the account page's forms. */
function accountForm(
  name: string,
  path: string,
  handler: keyof typeof import("./page-routes.js"),
  ownerPresent?: NonNullable<OperationDeclaration["needs"]>["ownerPresent"],
) {
  return {
    name,
    method: "POST",
    path: `account/${path}`,
    needs: ownerPresent ? { ...form, ownerPresent } : form,
    presentation: accountFormRefusal,
    handler: lazyHandler(routes, handler),
  } satisfies OperationDeclaration;
}

export const accountFeature = defineFeature({
  name: "account",
  operations: [
    { name: "accountPage", method: "GET", path: "account", needs: form, presentation: "page", handler: lazyHandler(routes, "accountPage") },
    {
      name: "confirmEmailPage",
      method: "GET",
      path: "account/confirm-email",
      needs: form,
      presentation: "page",
      handler: lazyHandler(routes, "confirmEmailPage"),
    },
    accountForm("changeEmail", "email", "emailForm", "changeEmail"),
    accountForm("confirmEmail", "confirm-email", "confirmEmailForm"),
    accountForm("deleteAccount", "delete", "deleteForm", "deleteAccount"),
    // Where the delete form comes back to, signed out by then.
    {
      name: "accountDeletedPage",
      method: "GET",
      path: "account/deleted",
      presentation: "page",
      handler: lazyHandler(routes, "deletedPage"),
    },
    accountForm("unlinkAccountForm", "unlink", "unlinkForm", "unlinkAccount"),
    // Signed out, from a mail: a refusal goes to the error page (the account page would ask to sign in first).
    {
      name: "revertEmailPage",
      method: "GET",
      path: "account/revert-email",
      needs: form,
      presentation: "page",
      handler: lazyHandler(revert, "revertEmailPage"),
    },
    { name: "revertEmail", method: "POST", path: "account/revert-email", needs: form, handler: lazyHandler(revert, "revertEmailChange") },
  ],
});
