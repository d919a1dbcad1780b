/**
 * Password accounts (docs/password.md): the `Password()` provider's forms and links under
 * `<basePath>/password/`. Sign-in itself is the provider's callback (`sign-in.ts`). Turned on by a
 * `Password()` provider; its code loads with the first request to it.
 *
 * @module features/password
 */
import { isPasswordProvider } from "../../provider-kind.js";
import type { RouteNeeds } from "../../types/internal.js";
import type { OperationDeclaration } from "../../types/operation.js";
import { defineFeature } from "../define.js";
import { type PasswordInput, type PasswordPost, passwordInputs } from "./input.js";
import type { PasswordPage } from "./routes.js";

const routes = () => import("./routes.js");
const recovery = () => import("./recovery.js");

/** Pages and forms: a CSRF token (minted if new) for their forms, and where to go afterwards. */
const form: RouteNeeds = { csrf: "mint", callbackUrl: true };

function page(name: string, path: PasswordPage): OperationDeclaration {
  return {
    name,
    method: "GET",
    path: `password/${path}`,
    needs: form,
    presentation: "page",
    handler: async (options, request) => (await routes()).passwordPage(path, options, request),
  };
}

function post<F extends PasswordPost>(name: string, path: F, ownerPresent?: "changePassword"): OperationDeclaration<PasswordInput<F>> {
  return {
    name,
    method: "POST",
    path: `password/${path}`,
    needs: ownerPresent ? { ...form, ownerPresent } : form,
    input: passwordInputs[path],
    presentation: async (options, request, error) => (await routes()).passwordFormRefusal(path, options, request, error),
    handler: async (options, request, input) => (await routes()).passwordPost(path, options, request, input),
  };
}

export const passwordFeature = defineFeature({
  name: "password",
  hooks: {
    checkPassword: async (options, provider, credentials) => (await import("./sign-in.js")).passwordSignIn(options, provider, credentials),
    mailboxRecovery: (options, request, address) =>
      options.providers.some(isPasswordProvider) ? async () => (await recovery()).recoveryFor(options, request, address)?.() : undefined,
  },
  operations: [
    page("signUpPage", "sign-up"),
    page("forgotPasswordPage", "forgot"),
    page("resetPasswordPage", "reset"),
    page("verifyEmailPage", "verify"),
    {
      name: "unlockPage",
      method: "GET",
      path: "password/unlock",
      needs: form,
      presentation: "page",
      handler: async (options, request) => (await routes()).unlockPage(options, request),
    },
    post("signUp", "sign-up"),
    post("verifyEmail", "verify"),
    post("requestPasswordReset", "forgot"),
    post("resetPassword", "reset"),
    post("resendPasswordReset", "resend"),
    post("changePassword", "change", "changePassword"),
  ],
});
