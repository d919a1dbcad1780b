/**
 * The account's life (docs/account.md): the built-in account page and its forms, the email address
 * changed, confirmed or reverted, the account deleted. Its code loads with the first request to it.
 *
 * @module features/account
 */
import { accountFormRefusal, formNeeds } from "../../sign-in/account-form.js";
import type { OperationDeclaration } from "../../types/operation.js";
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
import { changeEmailInput, deleteAccountInput, linkInput } from "./input.js";

const routes = () => import("./page-routes.js");
const revert = () => import("./email-revert.js");
const emailChange = () => import("./email-change.js");

const form = formNeeds;

type OwnerPresent = NonNullable<OperationDeclaration["needs"]>["ownerPresent"];

/** A POST of one of the account page's forms, back to the page with a refusal. */
function accountPost<I>(name: string, path: string, run: Pick<OperationDeclaration<I>, "input" | "handler">, ownerPresent?: OwnerPresent) {
  return {
    name,
    method: "POST",
    path: `account/${path}`,
    needs: ownerPresent ? { ...form, ownerPresent } : form,
    presentation: accountFormRefusal,
    ...run,
  } satisfies OperationDeclaration<I>;
}

/** A form of the page that runs another feature's operation (its input parsed by that operation's schema). */
function accountForm(name: string, path: string, handler: FormHandler, ownerPresent?: OwnerPresent) {
  return accountPost(name, path, { handler: lazyHandler(routes, handler) }, ownerPresent);
}

type FormHandler = "unlinkForm";

export const accountFeature = defineFeature({
  name: "account",
  operations: [
    {
      name: "accountPage",
      method: "GET",
      path: "account",
      needs: form,
      presentation: "page",
      handler: async (options, request) => (await routes()).accountPage(options, request),
    },
    {
      name: "confirmEmailPage",
      method: "GET",
      path: "account/confirm-email",
      needs: form,
      presentation: "page",
      handler: lazyHandler(routes, "confirmEmailPage"),
    },
    accountPost(
      "changeEmail",
      "email",
      { input: changeEmailInput, handler: lazyHandler(emailChange, "requestEmailChange") },
      "changeEmail",
    ),
    accountPost("confirmEmail", "confirm-email", { input: linkInput, handler: lazyHandler(emailChange, "confirmEmailChange") }),
    accountPost(
      "deleteAccount",
      "delete",
      { input: deleteAccountInput, handler: lazyHandler(() => import("./delete-account.js"), "deleteAccount") },
      "deleteAccount",
    ),
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
    defineOperation({
      name: "revertEmail",
      method: "POST",
      path: "account/revert-email",
      needs: form,
      input: linkInput,
      handler: lazyHandler(revert, "revertEmailChange"),
    }),
  ],
});
