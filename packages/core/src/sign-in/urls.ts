/**
 * Where the password flows send people: the sign-in page (the app's own when `pages.signIn` is set) and
 * the built-in password pages.
 *
 * @module password-accounts/urls
 */
import type { InternalOptions } from "../types/internal.js";

/** The sign-in page. */
export function signInUrl(options: InternalOptions): string {
  return options.pages.signIn ? new URL(options.pages.signIn, options.origin).href : `${options.authUrl}/signin`;
}

/** A password page (`sign-up`, `forgot`, …) or route. */
export function passwordUrl(options: InternalOptions, form: string): string {
  return `${options.authUrl}/password/${form}`;
}
