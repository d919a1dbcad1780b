/**
 * The built-in pages: sign-in, sign-out, error and verify-request. Each render function is pure (no I/O)
 * and returns a complete, self-contained HTML document (no inline scripts, nothing from another host; the passkey section loads one script served by authlib itself) with the
 * HTTP status to send it with. Every value from the request or the configuration is escaped by the
 * renderer; theme colours and URLs are validated and replaced by defaults (or left out) when unsafe.
 *
 * @module pages
 */

import {
  type AccountDeletedPageParams,
  type AccountPageAccount,
  type AccountPageParams,
  type ConfirmEmailPageParams,
  renderAccountDeletedHtml,
  renderAccountHtml,
  renderConfirmEmailHtml,
} from "./account.js";
import { type EmailConfirmPageParams, renderEmailConfirmHtml } from "./email-confirm.js";
import { type ErrorPageParams, renderErrorHtml } from "./error.js";
import { type PasswordForm, type PasswordPageParams, renderPasswordHtml } from "./password.js";
import { renderSignInHtml, type SignInPageParams } from "./signin.js";
import { renderSignOutHtml, type SignOutPageParams } from "./signout.js";
import { renderVerifyRequestHtml, type VerifyRequestPageParams } from "./verify-request.js";

/** The texts of a request's language (see `i18n/request`): loaded with the pages, so the chooser costs nothing before the first page. */
export { requestTranslator as pageText } from "../i18n/request.js";
export type { PageProvider } from "./signin.js";
export type {
  AccountDeletedPageParams,
  AccountPageAccount,
  AccountPageParams,
  ConfirmEmailPageParams,
  EmailConfirmPageParams,
  ErrorPageParams,
  PasswordForm,
  PasswordPageParams,
  SignInPageParams,
  SignOutPageParams,
  VerifyRequestPageParams,
};

/** A rendered page: the HTTP status and the HTML document (serve it as `text/html; charset=utf-8`). */
export interface PageResult {
  status: number;
  html: string;
}

/**
 * The sign-in page (status 200): a button per OAuth/OIDC provider, an email form, a credentials form per
 * credentials provider, and, when `error` is set, a message for that error type in an alert.
 */
export function renderSignInPage(params: SignInPageParams): PageResult {
  return { status: 200, html: renderSignInHtml(params) };
}

/** The sign-out confirmation page (status 200): a form that POSTs to `actionUrl` with the CSRF token. */
export function renderSignOutPage(params: SignOutPageParams): PageResult {
  return { status: 200, html: renderSignOutHtml(params) };
}

/**
 * The error page. Status by type, as in Auth.js: `Configuration` 500, `AccessDenied` 403,
 * `Verification` 403, anything else (unknown types, no type) 200 with a generic message.
 */
export function renderErrorPage(params: ErrorPageParams): PageResult {
  return renderErrorHtml(params);
}

/** The "check your email" page shown after a magic link was sent (status 200). */
export function renderVerifyRequestPage(params: VerifyRequestPageParams): PageResult {
  return { status: 200, html: renderVerifyRequestHtml(params) };
}

/** A page of the Password() provider (status 200): create an account, forgot password, new password, confirm address. */
export function renderPasswordPage(params: PasswordPageParams): PageResult {
  return { status: 200, html: renderPasswordHtml(params) };
}

/** The signed-in user's account page (status 200): sign-in methods, password, passkeys. */
export function renderAccountPage(params: AccountPageParams): PageResult {
  return { status: 200, html: renderAccountHtml(params) };
}

/** The page a browser lands on after its account was deleted (status 200). */
export function renderAccountDeletedPage(params: AccountDeletedPageParams): PageResult {
  return { status: 200, html: renderAccountDeletedHtml(params) };
}

/** The page an email-change link opens (status 200): one button that makes the change. */
export function renderConfirmEmailPage(params: ConfirmEmailPageParams): PageResult {
  return { status: 200, html: renderConfirmEmailHtml(params) };
}

/** The page an email sign-in link opens outside the browser that asked for it (status 200): one button that signs in. */
export function renderEmailConfirmPage(params: EmailConfirmPageParams): PageResult {
  return { status: 200, html: renderEmailConfirmHtml(params) };
}
