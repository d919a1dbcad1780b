/**
 * The GET routes of the password forms: the built-in page of each (pages/password.tsx), with the
 * request's error to show.
 *
 * @module password-accounts/pages
 */
import { html } from "../../pages/html.js";
import type { PasswordForm } from "../../pages/index.js";
import { loadPages } from "../../pages/lazy.js";
import { passwordUrl, signInUrl } from "../../sign-in/urls.js";
import type { InternalOptions, InternalProvider, RequestInternal, ResponseInternal } from "../../types/internal.js";
import type { PasswordConfig } from "../../types/providers.js";

/**
 * The page of `request`'s form (`sign-up`, `forgot`, `reset` or `verify`), or of `form` when given (`resend`:
 * a reset link opened in another browser).
 */
export async function passwordPage(
  options: InternalOptions,
  request: RequestInternal,
  provider: InternalProvider & PasswordConfig,
  form: PasswordForm,
  /** The address a sign-up link confirms (the verify page shows it). */
  linkAddress?: string,
): Promise<ResponseInternal> {
  const { renderPasswordPage, text } = await loadPages(options.config, request.request, options.featureMessages);
  const { minLength, maxLength } = provider.passwordAccounts;
  return html(
    renderPasswordPage({
      text,
      form,
      actionUrl: passwordUrl(options, form),
      csrfToken: options.csrfToken,
      callbackUrl: options.callbackUrl,
      token: request.query.token,
      error: request.query.error,
      code: request.query.code,
      // What a refused post typed (password-accounts/routes.ts `backToForm`); a password never comes back.
      name: form === "sign-up" ? request.query.name : undefined,
      email: form === "verify" ? linkAddress : form === "sign-up" || form === "forgot" ? request.query.email : undefined,
      minLength,
      maxLength,
      signInUrl: signInUrl(options),
      signUpUrl: passwordUrl(options, "sign-up"),
      forgotUrl: passwordUrl(options, "forgot"),
      theme: options.theme,
    }),
  );
}
